"""matplotlib's default backend in the guest: Agg, and `plt.show()` returns the pictures.

A session has no screen. Natively, `plt.show()` on the Agg backend warns that it cannot show
anything and the figures are lost to the user; model code calls it constantly. Here it saves
every open figure as a PNG in the working directory (the workspace, so the files come back in
the call's result like any file written), under a name no file has (`figure_1.png`,
`figure_2.png`, ...), prints one line naming them and closes them. `fig.show()` does the same
for one figure. Everything else is matplotlib's Agg backend, so a saved figure is the same image
natively and here. The recipe makes this the default (`rcParams["backend"]`); code that picks
a backend with `matplotlib.use(...)` gets that one, as natively.
"""

from __future__ import annotations

import os

from matplotlib._pylab_helpers import Gcf
from matplotlib.backend_bases import FigureManagerBase
from matplotlib.backends.backend_agg import FigureCanvasAgg

__all__ = ["FigureCanvas", "FigureManager"]


def _free_name(taken: set[str]) -> str:
    n = 1
    while f"figure_{n}.png" in taken or os.path.lexists(f"figure_{n}.png"):
        n += 1
    return f"figure_{n}.png"


def _save(managers: list[FigureManagerBase]) -> None:
    names: list[str] = []
    for manager in managers:
        name = _free_name(set(names))
        manager.canvas.figure.savefig(name, format="png")
        names.append(name)
    for manager in managers:
        Gcf.destroy(manager)
    if names:
        print(f"Saved {', '.join(names)} in {os.getcwd()} (a figure cannot be displayed here)")


class FigureManagerCove(FigureManagerBase):
    def show(self) -> None:
        """`fig.show()`: save this figure (and close it)."""
        _save([self])

    @classmethod
    def pyplot_show(cls, *, block: bool | None = None) -> None:
        """`plt.show()`: save every open figure (and close them)."""
        _save(list(Gcf.get_all_fig_managers()))


class FigureCanvasCove(FigureCanvasAgg):
    manager_class = FigureManagerCove


FigureCanvas = FigureCanvasCove
FigureManager = FigureManagerCove
