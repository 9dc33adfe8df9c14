"""The page's side of the browser app, in Pyodide: the engine's view of a game for the page
(:mod:`kniffel.browser.view`), the requests the page's Web Worker sends
(:mod:`kniffel.browser.bridge`), the expert's advice for the page
(:mod:`kniffel.browser.advice_view`) and the hand-off link (:mod:`kniffel.browser.share`).

Pure Python without I/O, built only on :mod:`kniffel.engine`; the desktop's server
(:mod:`kniffel.web.server`) ships this folder and the engine's as they are.
"""
