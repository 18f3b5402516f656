import sys
from pathlib import Path

# The engine's scenario language (tests/games/orden/orden_scenario.py) sets up table positions.
SCENARIOS = Path(__file__).resolve().parents[1] / "orden"
if str(SCENARIOS) not in sys.path:
    sys.path.insert(0, str(SCENARIOS))
