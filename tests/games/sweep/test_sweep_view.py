"""What Sweep's pages show, read from the view without pygame: the goal, what to do and who does it, who picks,
a step's rule and captures in words."""
from __future__ import annotations

from games.sweep.test_sweep_page import view_of
from games.tables import Keys
from table.games.sweep import view as shown
from table.games.sweep.rules import HAND


def test_the_prompt_names_who_acts():
    play = view_of("play", 4)
    assert shown.prompt(Keys(), play) == f"prompt_play(seat={play['joined'][play['view']['turn']]})"
    assert shown.prompt(Keys(), view_of("register", 3)) == f"prompt_register(n={HAND})"
    assert shown.prompt(Keys(), view_of("over", 3)) == "play_again"
    assert shown.goal(Keys(), view_of("deal", 3)["view"]).startswith("target(")
    assert shown.goal(Keys(), play["view"]) == "one_deal"


def test_a_tie_waits_for_its_picker_on_the_last_step():
    table = view_of("pick", 3)
    steps = shown.resolution(table["view"])[2]
    assert shown.picker(table["view"], len(steps) - 1) == table["view"]["capture"]["picker"]
    assert shown.picker(table["view"], 0) is None or len(steps) == 1


def test_each_step_says_its_rule_and_its_captures():
    table = view_of("capture", 4)
    for step in shown.resolution(table["view"])[2]:
        assert shown.rule_sentence(Keys(), table, step).startswith(f"rule_{step['rule']}(")
        took = shown.took_sentence(Keys(), table, step)
        assert took == "took_nothing" if not step["taken"] else took.count("takes(") == len(shown.takers(step))
