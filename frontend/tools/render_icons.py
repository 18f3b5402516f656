"""Renders the PNG and ICO fallbacks of ``frontend/static/frontend/favicon.svg`` with the
browser the tests use (no image library needed). Run after changing the SVG:

    .venv/bin/python frontend/tools/render_icons.py
"""
from __future__ import annotations

import os
import struct
from pathlib import Path

from playwright.sync_api import sync_playwright

STATIC = Path(__file__).resolve().parents[1] / "static" / "frontend"
SIZES = {"favicon-32.png": 32, "icon-180.png": 180, "icon-192.png": 192, "icon-512.png": 512}


def ico(png: bytes, size: int) -> bytes:
    """An .ico holding one PNG image (allowed since Windows Vista; every browser reads it)."""
    header = struct.pack("<HHH", 0, 1, 1)
    entry = struct.pack("<BBBBHHII", size % 256, size % 256, 0, 0, 1, 32, len(png), 6 + 16)
    return header + entry + png


def main() -> None:
    svg = (STATIC / "favicon.svg").read_text()
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=os.environ.get("CHROMIUM", "/usr/bin/chromium"),
                                     args=["--headless", "--no-sandbox", "--disable-background-networking"])
        for name, size in SIZES.items():
            page = browser.new_page(viewport={"width": size, "height": size})
            page.set_content(f"<style>html,body{{margin:0}}svg{{display:block;width:{size}px;height:{size}px}}"
                             f"</style>{svg}")
            (STATIC / name).write_bytes(page.screenshot(omit_background=True))
            page.close()
        browser.close()
    (STATIC / "favicon.ico").write_bytes(ico((STATIC / "favicon-32.png").read_bytes(), 32))


if __name__ == "__main__":
    main()
