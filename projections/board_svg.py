"""Board pictures as SVG: kept as the import path older callers use.

The drawing itself lives in `projections.render` (drawsvg): one renderer for
`board --svg`, `run --svg-dir` and the viewer.
"""

from __future__ import annotations

from projections.render import LAYERS, Overlay, board_svg

__all__ = ["LAYERS", "Overlay", "board_svg"]
