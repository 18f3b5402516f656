"""The simulation script's smoke run (what CI runs): all games end, figures come out."""
import importlib.util
from pathlib import Path

BENCH = Path(__file__).resolve().parents[3] / "bench" / "sim" / "alchemist.py"


def test_bench_smoke(tmp_path, capsys):
    spec = importlib.util.spec_from_file_location("alchemist_bench", BENCH)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    out = tmp_path / "sim.json"
    assert mod.main(["--smoke", "--json", str(out)]) == 0
    text = capsys.readouterr().out
    assert "avg winning score" in text and out.exists()
