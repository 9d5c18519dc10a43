"""`python -m table` is the `cardtable` command."""
import sys

from table.cli import main

sys.exit(main())
