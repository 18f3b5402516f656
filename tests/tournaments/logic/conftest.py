# The logic lives in platform/ (importable as ``tournaments.logic``) and uses games/ from the
# repository root; make both importable however pytest is started.
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
for p in (ROOT, ROOT / "platform"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))
HERE = str(Path(__file__).resolve().parent)  # for tl_helpers under any import mode
if HERE not in sys.path:
    sys.path.insert(0, HERE)
