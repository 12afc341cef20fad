"""matplotlib, seaborn, contourpy and kiwisolver in the guest (docs/packages.md; recipes/
matplotlib, recipes/contourpy, recipes/kiwisolver, recipes/qhull).

The chart-fidelity suite (scientific/test_charts.py) compares rendered images with native ones;
here: what a session has (versions, backend, data path, fonts), `plt.show()` returning figures,
the patched signatures and threads, C++ exceptions reaching Python as native raises them while
the session lives, and module names as natively.
"""

from __future__ import annotations

import io
import json
from typing import Any

import contourpy
import kiwisolver
import matplotlib
import pytest
from matplotlib import font_manager
from PIL import Image

import cove
from tests.support.recipes import version

pytestmark = pytest.mark.anyio


async def run(session: cove.Session, code: str) -> Any:
    """Runs `code`, which prints one JSON document last; fails on any error output."""
    result = await session.run_code(code, timeout_s=120)
    assert result.return_code == 0 and result.stderr == "", result.stderr
    return json.loads(result.stdout.splitlines()[-1])


async def guest_and_native(session: cove.Session, code: str) -> tuple[Any, Any]:
    """`code`'s JSON document (its last line is `print(json.dumps(out))`) from the guest and
    from this process, for the test to compare."""
    assert code.endswith("print(json.dumps(out))")
    native: dict[str, Any] = {}
    exec(code.removesuffix("print(json.dumps(out))") + "out = json.loads(json.dumps(out))", native)
    return await run(session, code), native["out"]


async def test_the_versions_are_the_recipes_and_the_backend_cove_s(
    session: cove.Session,
) -> None:
    out = await run(
        session,
        "import json, importlib.metadata as md, matplotlib, matplotlib.ft2font as ft\n"
        "import contourpy, kiwisolver, seaborn\n"
        "print(json.dumps({'mpl': matplotlib.__version__, 'contourpy': contourpy.__version__,"
        " 'kiwi': kiwisolver.__version__, 'seaborn': seaborn.__version__,"
        " 'freetype': ft.__freetype_version__, 'backend': matplotlib.get_backend(),"
        " 'data': matplotlib.get_data_path(), 'config': matplotlib.get_configdir(),"
        " 'dists': [md.version(n) for n in ('matplotlib', 'contourpy', 'kiwisolver', 'seaborn',"
        "  'cycler', 'fonttools', 'pyparsing', 'packaging')]}))",
    )
    assert out["mpl"] == version("matplotlib") == matplotlib.__version__
    assert out["contourpy"] == version("contourpy") == contourpy.__version__
    assert out["kiwi"] == version("kiwisolver") == kiwisolver.__version__
    assert out["seaborn"] == "0.13.2"
    assert out["dists"] == [
        version("matplotlib"),
        version("contourpy"),
        version("kiwisolver"),
        "0.13.2",
        "0.12.1",
        "4.55.3",
        "3.2.1",
        "24.2",
    ]
    # Debian's FreeType (recipes/freetype), not the wheels' 2.6.1 (docs/packages.md)
    assert out["freetype"] == version("freetype").split("+")[0]
    assert out["backend"] == "module://cove_guest.matplotlib_backend"
    assert out["data"] == "/usr/share/matplotlib/mpl-data"
    assert out["config"] == "/tmp/matplotlib"


async def test_the_font_list_is_the_snapshot_s_and_names_matplotlib_s_own_dejavu(
    session: cove.Session,
) -> None:
    out = await run(
        session,
        "import json, matplotlib.font_manager as fm\n"
        "print(json.dumps({'sans': fm.findfont('DejaVu Sans'), 'serif': fm.findfont('serif'),"
        " 'mono': fm.findfont('monospace'), 'stix': fm.findfont('STIXGeneral'),"
        " 'n': len(fm.fontManager.ttflist)}))",
    )
    data = "/usr/share/matplotlib/mpl-data/fonts/ttf"
    # the faces the native wheels render with: matplotlib's own, found before Debian's copies
    assert out["sans"] == f"{data}/DejaVuSans.ttf"
    assert out["serif"] == f"{data}/DejaVuSerif.ttf"
    assert out["mono"] == f"{data}/DejaVuSansMono.ttf"
    assert out["stix"] == f"{data}/STIXGeneral.ttf"
    native = font_manager.fontManager.ttflist
    bundled = [f for f in native if "mpl-data" in f.fname]
    assert out["n"] >= len(bundled)


async def test_plt_show_saves_each_open_figure_under_a_free_name_and_closes_them(
    session: cove.Session,
) -> None:
    first = await session.run_code(
        "import matplotlib.pyplot as plt\n"
        "open('figure_1.png', 'wb').write(b'not mine')\n"
        "plt.plot([1, 2, 3]); plt.figure(); plt.bar(['a', 'b'], [3, 4])\n"
        "plt.show()\n"
        "print(plt.get_fignums())",
        timeout_s=120,
    )
    assert first.return_code == 0 and first.stderr == "", first.stderr
    lines = first.stdout.splitlines()
    assert lines == [
        "Saved figure_2.png, figure_3.png in /workspace (a figure cannot be displayed here)",
        "[]",
    ]
    files = await session.list_files()
    assert {"figure_1.png", "figure_2.png", "figure_3.png"} <= {f.path for f in files}
    assert (await session.read_file("figure_1.png"))[0] == b"not mine"
    for name, size in (("figure_2.png", (640, 480)), ("figure_3.png", (640, 480))):
        image = Image.open(io.BytesIO((await session.read_file(name))[0]))
        assert image.format == "PNG" and image.size == size
    # fig.show() saves that figure only; with nothing open, plt.show() prints nothing
    second = await session.run_code(
        "fig, ax = plt.subplots(figsize=(3, 2)); other = plt.figure()\n"
        "fig.show(); print(plt.get_fignums() == [other.number]); plt.close('all'); plt.show()",
        timeout_s=120,
    )
    assert second.stdout.splitlines() == [
        "Saved figure_4.png in /workspace (a figure cannot be displayed here)",
        "True",
    ], second.stderr
    image = Image.open(io.BytesIO((await session.read_file("figure_4.png"))[0]))
    assert image.size == (300, 200)


async def test_an_explicit_backend_is_used_as_natively(session: cove.Session) -> None:
    # matplotlib.use("Agg"): plain Agg, whose show() warns and saves nothing, as natively
    out = await run(
        session,
        "import json, warnings, os, matplotlib\nmatplotlib.use('Agg')\n"
        "import matplotlib.pyplot as plt\nplt.plot([1, 2])\n"
        "with warnings.catch_warnings(record=True) as w:\n"
        "    warnings.simplefilter('always'); plt.show()\n"
        "print(json.dumps({'backend': matplotlib.get_backend(),"
        " 'warned': [str(x.message) for x in w], 'png': [n for n in os.listdir() if"
        " n.endswith('.png')]}))",
    )
    assert out["backend"] == "Agg" and out["png"] == []
    assert any("non-interactive" in m for m in out["warned"])


async def test_the_vector_backends_write_files_natively_readable(session: cove.Session) -> None:
    out = await run(
        session,
        "import json, matplotlib.pyplot as plt\n"
        "fig, ax = plt.subplots(figsize=(4, 3)); ax.plot([1, 3, 2]); ax.set_title('Température €')\n"
        "for ext in ('pdf', 'svg', 'ps', 'eps'):\n    fig.savefig(f'chart.{ext}')\n"
        "print(json.dumps({}))",
    )
    assert out == {}
    pdf, _ = await session.read_file("chart.pdf")
    assert pdf.startswith(b"%PDF-1.4") and b"/MediaBox [ 0 0 288 216 ]" in pdf
    svg, _ = await session.read_file("chart.svg")
    assert b'width="288pt" height="216pt"' in svg and b"<svg" in svg
    ps, _ = await session.read_file("chart.ps")
    assert ps.startswith(b"%!PS-Adobe-3.0")
    eps, _ = await session.read_file("chart.eps")
    assert eps.startswith(b"%!PS-Adobe-3.0 EPSF-3.0")


async def test_mplot3d_and_the_namespace_package_import(session: cove.Session) -> None:
    out = await run(
        session,
        "import json, mpl_toolkits, matplotlib.pyplot as plt\n"
        "from mpl_toolkits.mplot3d import Axes3D\n"
        "ax = plt.figure().add_subplot(projection='3d'); ax.plot([0, 1], [0, 1], [0, 1])\n"
        "plt.savefig('3d.png')\n"
        "print(json.dumps({'kind': type(ax).__name__, 'path': list(mpl_toolkits.__path__)}))",
    )
    assert out == {"kind": "Axes3D", "path": ["/usr/lib/python311.zip/mpl_toolkits"]}


async def test_tk_is_absent_as_on_a_machine_without_it(session: cove.Session) -> None:
    out = await run(
        session,
        "import json\ntry:\n    import matplotlib.backends.backend_tkagg\n"
        "except ImportError as e:\n    print(json.dumps({'error': type(e).__name__}))",
    )
    assert out["error"] in ("ImportError", "ModuleNotFoundError")


async def test_a_wrong_argument_to_a_pybind11_module_is_the_native_exception(
    session: cove.Session,
) -> None:
    # pybind11 reports an argument it cannot convert as a C++ exception; it reaches Python as
    # the exception native matplotlib raises, and the session (its variables) lives on.
    code = (
        "import json, numpy as np\nfrom matplotlib import _path, _image\nkept = 42\n"
        "errors = []\n"
        "for call in (lambda: _path.points_in_path(np.zeros((3, 3, 3)), 1.0, None, None),\n"
        "             lambda: _path.count_bboxes_overlapping_bbox(None, np.zeros(5)),\n"
        "             lambda: _image.resample(np.zeros((2, 2)), np.zeros((2, 2, 2, 2)), None)):\n"
        "    try:\n        call()\n    except Exception as e:\n"
        "        errors.append([type(e).__name__, str(e).splitlines()[0]])\n"
        "out = errors\nprint(json.dumps(out))"
    )
    guest, native = await guest_and_native(session, code)
    assert guest == native
    assert len(guest) == 3
    after = await session.run_code("print(kept)", timeout_s=30)
    assert after.stdout == "42\n"


async def test_module_and_class_names_are_the_native_ones(session: cove.Session) -> None:
    # the interpreter's table initialises each linked-in module with its package context
    # (check_link.py), so a single-phase module created as "_path" is named as natively
    code = (
        "import json, matplotlib._path, matplotlib._tri, matplotlib.ft2font, PIL._imaging\n"
        "import kiwisolver._cext, contourpy._contourpy\n"
        "names = [m.__name__ for m in (matplotlib._path, matplotlib._tri, matplotlib.ft2font,"
        " PIL._imaging, kiwisolver._cext, contourpy._contourpy)]\n"
        "classes = [c.__module__ + '.' + c.__qualname__ for c in"
        " (matplotlib._tri.TrapezoidMapTriFinder, matplotlib.ft2font.FT2Font,"
        " contourpy._contourpy.SerialContourGenerator, kiwisolver._cext.Variable)]\n"
        "out = [names, classes]\nprint(json.dumps(out))"
    )
    guest, native = await guest_and_native(session, code)
    assert guest == native
    assert guest[0][0] == "matplotlib._path"


async def test_kiwisolver_s_patched_methods_getters_and_gc_clear_run(
    session: cove.Session,
) -> None:
    # patches/0002: each METH_NOARGS method, each strength getter and each tp_clear (through a
    # reference cycle the collector breaks) is called through a function pointer; a mismatched
    # signature traps in WebAssembly
    code = (
        "import gc, json, kiwisolver as k\n"
        "x, y = k.Variable('x'), k.Variable('y')\n"
        "s = k.Solver()\nc = x + 2 * y >= 10\ns.addConstraint(c)\n"
        "s.addConstraint((x == 2 * y) | 'strong')\ns.updateVariables()\n"
        "e = x + y + 1\nt = e.terms()[0]\n"
        "out = [x.name(), x.value(), y.value(), x.context(), e.constant(), e.value(),"
        " len(e.terms()), t.coefficient(), t.value(), t.variable().name(), str(c.op()),"
        " c.strength(), c.violated(), len(c.expression().terms()),"
        " [k.strength.weak, k.strength.medium, k.strength.strong, k.strength.required],"
        " len(s.dumps()) > 0]\n"
        "s.reset()\n"
        "for make in (lambda v: v + 1, lambda v: v * 2, lambda v: v >= 1):\n"
        "    v = k.Variable('v'); v.setContext([v, make(v)])\n"
        "del v\n"
        "out.append(gc.collect() > 0)\n"
        "print(json.dumps(out))"
    )
    guest, native = await guest_and_native(session, code)
    assert guest == native
    assert guest[:3] == ["x", 5.0, 2.5]


async def test_contourpy_has_no_threaded_generator_and_the_serial_ones_match(
    session: cove.Session,
) -> None:
    code = (
        "import json, numpy as np, contourpy\n"
        "x, y = np.meshgrid(np.linspace(-2, 2, 30), np.linspace(-1, 1, 20))\n"
        "z = np.exp(-(x**2) - 3 * y**2) + 0.1 * x\n"
        "out = {}\n"
        "for name in ('serial', 'mpl2014', 'mpl2005'):\n"
        "    gen = contourpy.contour_generator(x, y, z, name=name)\n"
        "    lines = gen.lines(0.5)\n"
        "    filled = gen.filled(0.2, 0.6)\n"
        "    out[name] = [[np.round(a, 12).tolist() for a in lines][:3],"
        " np.round(filled[0][0], 12).tolist() if filled[0] else None]\n"
        "print(json.dumps(out))"
    )
    guest, native = await guest_and_native(session, code)
    assert guest == native
    threads = await run(
        session,
        "import json, contourpy\ntry:\n"
        "    contourpy.contour_generator(z=[[0, 1], [1, 0]], name='threaded')\n"
        "except ValueError as e:\n    err = str(e)\n"
        "print(json.dumps([contourpy.max_threads(), contourpy.ThreadedContourGenerator, err]))",
    )
    assert threads == [1, None, "Unrecognised contour generator name: threaded"]


async def test_qhull_triangulates_as_natively_and_reports_degenerate_input(
    session: cove.Session,
) -> None:
    code = (
        "import json, numpy as np\nfrom matplotlib import tri\n"
        "rng = np.random.default_rng(3)\nx, y = rng.random(40), rng.random(40)\n"
        "t = tri.Triangulation(x, y)\n"
        "out = {'triangles': sorted(sorted(r) for r in t.triangles.tolist())}\n"
        "try:\n    tri.Triangulation([0, 1, 2], [0, 1, 2])\n"
        "except RuntimeError as e:\n    out['collinear'] = str(e)\n"
        "print(json.dumps(out))"
    )
    guest, native = await guest_and_native(session, code)
    assert guest == native
    assert "singular input data" in guest["collinear"]


async def test_seaborn_s_datasets_fail_at_once_without_network(session: cove.Session) -> None:
    out = await run(
        session,
        "import json, seaborn as sns\ntry:\n    sns.load_dataset('tips')\n"
        "except Exception as e:\n    print(json.dumps([type(e).__name__, str(e)]))",
    )
    assert out[0] in ("URLError", "OSError", "ConnectionError", "PermissionError"), out
    assert "network" in out[1].lower(), out


async def test_the_config_directory_is_each_session_s_own(pool: cove.Pool) -> None:
    a, b = await pool.create_session(), await pool.create_session()
    write = (
        "import os, matplotlib\nd = matplotlib.get_configdir(); os.makedirs(d, exist_ok=True)\n"
        "open(os.path.join(d, 'matplotlibrc'), 'w').write('lines.linewidth: 7\\n')\n"
        "print(sorted(os.listdir(d)))"
    )
    first = await a.run_code(write, timeout_s=60)
    assert first.stdout == "['matplotlibrc']\n", first.stderr
    other = await b.run_code(
        "import os\nprint(os.path.exists('/tmp/matplotlib/matplotlibrc'))", timeout_s=60
    )
    assert other.stdout == "False\n", other.stderr


async def test_a_figure_past_the_memory_limit_is_a_memory_error_and_the_session_lives(
    session: cove.Session,
) -> None:
    # Agg allocates the canvas with C++ new: past the session's memory limit that throws
    # std::bad_alloc, which matplotlib turns into MemoryError (natively the same, past RAM)
    result = await session.run_code(
        "import matplotlib.pyplot as plt\nkept = 42\n"
        "fig = plt.figure(figsize=(150, 150), dpi=100)\n"
        "try:\n    fig.savefig('huge.png')\nexcept MemoryError as e:\n"
        "    print('MemoryError', type(e).__name__)\nplt.close('all')",
        timeout_s=120,
    )
    assert result.stdout == "MemoryError MemoryError\n", result.stderr
    after = await session.run_code(
        "import matplotlib.pyplot as plt\nplt.plot([1, 2]); plt.savefig('ok.png'); print(kept)",
        timeout_s=60,
    )
    assert after.stdout == "42\n", after.stderr


async def test_text_measures_as_with_the_wheels_freetype_and_pillow_s_as_its_own(
    session: cove.Session,
) -> None:
    # matplotlib's FreeType library renders as FreeType 2.6.1 (the wheels'; freetype/0001 and
    # matplotlib/0004); Pillow's, a library of its own, as Debian's 2.12.1 (which the native
    # Pillow wheel draws as: the differential suite's Pillow text cases)
    code = (
        "import json\nfrom matplotlib.backends.backend_agg import RendererAgg\n"
        "from matplotlib.font_manager import FontProperties\n"
        "r = RendererAgg(640, 480, 100)\n"
        "out = [r.get_text_width_height_descent(s, FontProperties(family='DejaVu Sans',"
        " size=size), ismath=math) for s, size, math in (('Monthly Sales 2024', 12, False),"
        " ('Wave 0123456789', 10, False), (r'$\\alpha^2 + \\sqrt{x}$', 14, True))]\n"
        "print(json.dumps(out))"
    )
    guest, native = await guest_and_native(session, code)
    assert guest == native
    assert guest[0] == [163.5, 18.0, 4.0]


async def test_a_font_opened_by_name_is_read_once_and_renders_as_from_a_file_object(
    session: cove.Session,
) -> None:
    # matplotlib/0005: FT2Font reads a font file whole and closes it (each glyph read through
    # the file object was a host call); the glyphs are those of a font read through a file
    # object, fname names the file, and the snapshot's DejaVu Sans is loaded already
    out = await run(
        session,
        "import json, os, hashlib\nimport matplotlib.font_manager as fm\n"
        "from matplotlib import ft2font\n"
        "cached = fm._get_font.cache_info().currsize\n"
        "def fds():\n    return sorted(os.listdir('/proc/self/fd')) if os.path.isdir("
        "'/proc/self/fd') else [fd for fd in range(3, 64) if _open(fd)]\n"
        "def _open(fd):\n    try:\n        os.fstat(fd)\n        return True\n"
        "    except OSError:\n        return False\n"
        "path = fm.findfont('DejaVu Serif')\nbefore = fds()\n"
        "by_name = ft2font.FT2Font(path)\nafter = fds()\n"
        "by_file = ft2font.FT2Font(open(path, 'rb'))\n"
        "def glyphs(font):\n    font.set_size(13, 100)\n"
        "    font.set_text('Quarterly revenue (€, 2024) 0123456789', 0.0,"
        " flags=ft2font.LOAD_FORCE_AUTOHINT)\n    font.draw_glyphs_to_bitmap()\n"
        "    return font.get_width_height(), hashlib.sha256(bytes(font.get_image())).hexdigest()\n"
        "try:\n    ft2font.FT2Font('/workspace/missing.ttf')\nexcept OSError as e:\n"
        "    missing = type(e).__name__\n"
        "print(json.dumps({'cached': cached, 'fds': after == before, 'fname': by_name.fname,"
        " 'same': glyphs(by_name) == glyphs(by_file), 'family': by_name.family_name,"
        " 'missing': missing}))",
    )
    assert out.pop("cached") >= 1
    assert out == {
        "fds": True,
        "fname": "/usr/share/matplotlib/mpl-data/fonts/ttf/DejaVuSerif.ttf",
        "same": True,
        "family": "DejaVu Serif",
        "missing": "FileNotFoundError",
    }


async def test_a_spectrogram_of_a_long_signal_is_native_s(session: cove.Session) -> None:
    # matplotlib/0006: mlab's windows of a long signal are one strided view (the view of every
    # window at every sample was over 2 GiB: 1.1 M samples x 2048 x 8 bytes), the same values
    code = (
        "import json\nimport numpy as np\nfrom matplotlib import mlab\n"
        "t = np.arange(1_100_000) / 44_100.0\n"
        "x = np.sin(2 * np.pi * 440 * t) + 0.5 * np.sin(2 * np.pi * (1000 + 200 * t) * t)\n"
        "spec, freqs, times = mlab.specgram(x, NFFT=2048, Fs=44_100, noverlap=0)\n"
        "pxx, f = mlab.psd(x[:300_000], NFFT=1024, Fs=44_100, noverlap=512)\n"
        "peak = freqs[spec.argmax(axis=0)]\n"
        "out = {'shape': spec.shape, 'times': [times[0], times[-1]], 'peak': peak[:5].tolist(),"
        " 'sum': float(spec.sum()), 'psd': float(pxx.sum()), 'psd_peak': float(f[pxx.argmax()])}\n"
        "print(json.dumps(out))"
    )
    guest, native = await guest_and_native(session, code)
    assert guest["shape"] == native["shape"] == [1025, 537]
    assert guest["times"] == native["times"] and guest["peak"] == native["peak"]
    assert guest["psd_peak"] == native["psd_peak"]
    assert guest["sum"] == pytest.approx(native["sum"], rel=1e-12)
    assert guest["psd"] == pytest.approx(native["psd"], rel=1e-12)
