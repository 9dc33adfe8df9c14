"""The browser app's desktop side: the local server and the static export
(:mod:`kniffel.web.server`) and the page itself (``static/``). What runs inside the page's
Pyodide is :mod:`kniffel.engine` and :mod:`kniffel.browser`.
"""
