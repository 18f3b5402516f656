import sys
from pathlib import Path

# the scenario language lives beside the tests (the suite runs with --import-mode=importlib)
HERE = Path(__file__).resolve().parent
for p in (str(HERE), str(HERE.parents[2])):
    if p not in sys.path:
        sys.path.insert(0, p)
