"""The browser app: the engine's view of a game for the page (:mod:`kniffel.web.view`), the
requests the page's Web Worker sends to the engine in Pyodide (:mod:`kniffel.web.bridge`), and
the local server and static export (:mod:`kniffel.web.server`).

``view`` and ``bridge`` are pure Python without I/O: they run unchanged inside Pyodide.
"""
