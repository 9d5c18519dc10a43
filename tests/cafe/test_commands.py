"""`cardtable hall` and `cardtable link` misused, as a newcomer does: a file option that names no usable file or
folder is one line naming the option, and nothing is made; a missing option is the command's own usage; `--help`
describes each café command and each of its options."""
from __future__ import annotations

import argparse

import pytest

from table.cli import command_parser, main
from tests.cafe.broker import free_port


@pytest.fixture
def files(tmp_path):
    """A password file, a file that is no CA certificate, and the options that name them."""
    password = tmp_path / "password"
    password.write_text("secret\n")
    return tmp_path, ["--password-file", str(password), "--ca", str(password)]


def refused(capsys, argv: list[str]) -> str:
    """What `cardtable ARGV` said, checked to be one line on stderr only, with status 1."""
    assert main(argv) == 1
    said = capsys.readouterr()
    assert said.out == "" and len(said.err.splitlines()) == 1, said.err
    return said.err.rstrip("\n")


def test_each_file_option_of_the_hall_that_cannot_be_used_is_named_in_one_line(capsys, files):
    tmp_path, options = files
    a_file = tmp_path / "password"
    state = ["--state", str(tmp_path / "hall")]
    for argv, said in [
        (["--staff-password-file", "/nonexistent", *state], "--staff-password-file /nonexistent: no such file"),
        (["--staff-password-file", str(tmp_path), *state], f"--staff-password-file {tmp_path}: a folder, not a file"),
        (["--state", "/etc/passwd"], "--state /etc/passwd: not a folder"),
        (["--state", f"{a_file}/hall"], f"--state {a_file}/hall: {a_file} is not a folder"),
        # every file is readable: the CA's content is refused before hall.sqlite is made
        ([*state, "--web", f"127.0.0.1:{free_port()}"],
         f"--ca {a_file}: no CA certificate can be read there (NO_CERTIFICATE_OR_CRL_FOUND)"),
    ]:
        assert refused(capsys, ["hall", *options, *argv]) == f"cardtable hall: {said}"
    for option in ("--password-file", "--ca"):
        argv = ["hall", *options, *state]
        argv[argv.index(option) + 1] = str(tmp_path / "none")
        assert refused(capsys, argv) == f"cardtable hall: {option} {tmp_path / 'none'}: no such file"
    assert refused(capsys, ["hall", "--setup", str(a_file), "--table", "t1"]) == \
        f"cardtable hall: --setup {a_file}: not a folder"
    assert not (tmp_path / "hall").exists(), "nothing made"


def test_each_file_option_of_the_link_that_cannot_be_used_is_named_in_one_line(capsys, files):
    tmp_path, options = files
    a_file = tmp_path / "password"
    link = ["link", "--table", "t1", "--broker", "hall.local"]
    (tmp_path / "cardtable-link").write_text("a file where the link's folder goes\n")
    for argv, said in [
        ([*options, "--state", str(a_file)], f"--state {a_file}: not a folder"),
        ([*options, "--state", str(tmp_path / "cardtable")],
         f"--state {tmp_path / 'cardtable'}: {tmp_path / 'cardtable-link'} is not a folder"),
        (["--password-file", str(tmp_path), "--ca", str(a_file)], f"--password-file {tmp_path}: a folder, not a file"),
        (["--password-file", str(a_file), "--ca", "/nonexistent"], "--ca /nonexistent: no such file"),
    ]:
        assert refused(capsys, [*link, *argv]) == f"cardtable link: {said}"


@pytest.mark.parametrize("command", [["hall"], ["link", "--table", "t1", "--broker", "hall.local"]])
def test_a_missing_option_is_told_with_the_commands_own_usage(capsys, command, tmp_path):
    with pytest.raises(SystemExit) as stop:
        main([*command, "--ca", str(tmp_path / "ca.crt")])
    err = capsys.readouterr().err
    assert stop.value.code == 2
    assert err.startswith(f"usage: cardtable {command[0]} ") and \
        f"cardtable {command[0]}: error: {command[0]} needs --password-file FILE and --ca FILE" in err


@pytest.mark.parametrize("name", ["cafe", "hall", "link"])
def test_the_help_of_each_cafe_command_describes_it_and_each_of_its_options(name):
    [commands] = [action for action in command_parser()._actions if isinstance(action, argparse._SubParsersAction)]
    command = commands.choices[name]
    assert command.description and "docs/cafe.md" in command.description
    assert [action.dest for action in command._actions if not action.help] == []
    assert "the broker's port (default: 8883)" in command.format_help() or name == "cafe"
