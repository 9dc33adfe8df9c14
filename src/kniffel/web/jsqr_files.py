"""Which files of the npm package ``jsqr`` (jsQR, a QR code decoder in plain JavaScript,
Apache-2.0) the browser app needs, in one place: the site (:mod:`kniffel.web.server`) serves its
decoder as ``vendor/jsqr.js`` (the page's camera reads a code with it where the browser has no
``BarcodeDetector``), and ``setup.py`` puts the files into the package (``kniffel/web/jsqr/``),
so an installed wheel builds the site with no checkout and no npm. The module has no imports,
so ``setup.py`` can read it before the package is installed.
"""

#: The decoder (a UMD script that the site's build wraps as an ES module).
JSQR_SCRIPT = "dist/jsQR.js"

#: What the package's copy holds, at the npm package's own paths: the decoder, its licence and
#: the package's metadata (its version, which the site reports).
PACKAGE_COPY: tuple[str, ...] = (JSQR_SCRIPT, "LICENSE", "package.json")

#: Where the package's copy lies, relative to ``kniffel/web``.
COPY_FOLDER = "jsqr"

#: Where the site holds the decoder (an ES module; outside the page's own modules, so it is not
#: preloaded: the page imports it only when a scan needs it).
SITE_FILE = "vendor/jsqr.js"
