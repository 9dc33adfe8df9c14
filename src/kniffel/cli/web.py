"""``kniffel web``: the browser app served on this computer, or written to a folder."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from kniffel.cli.localized import KniffelCommand, both, fail, lang_option, summary
from kniffel.engine.errors import KniffelError
from kniffel.engine.messages import count
from kniffel.engine.messages import text as words

if TYPE_CHECKING:
    from kniffel.engine.rules import Lang


@click.command("web", cls=KniffelCommand)
@summary("cli.help.command.web")
@click.option("--host", default="127.0.0.1", show_default=True,
              help=both("cli.help.web.host"))
@click.option("--port", type=click.IntRange(0, 65535), default=8765, show_default=True,
              help=both("cli.help.web.port"))
@click.option("--no-browser", is_flag=True, help=both("cli.help.web.no_browser"))
@click.option("--export", "export_dir", type=click.Path(file_okay=False),
              help=both("cli.help.web.export"))
@click.option("--force", is_flag=True,
              help=both("cli.help.web.force"))
@lang_option
def web(host: str, port: int, no_browser: bool, export_dir: str | None, force: bool,
        lang: Lang) -> None:
    """A port in use is told before the site is built; ``--export`` writes only into an empty or
    new folder or over an earlier export (``--force``: into any folder).
    """
    from kniffel.extras import require

    require("web")  # numpy (kniffel[web]): else one sentence naming the extra, status 2
    from kniffel.web.server import build_site, serve

    try:
        if export_dir is not None:
            # the production page: its modules bundled where esbuild is installed (a checkout)
            info = build_site(export_dir, force=force, bundle=None)
            click.echo("kniffel web: " + words("cli.site_written", lang,
                                              count=count(len(info["files"]), lang),
                                              where=export_dir, build=info["build"],
                                              pyodide=info["pyodide"]))
            return
        from kniffel.interrupt import interruptible

        with interruptible():  # SIGTERM stops it like Ctrl-C: the temporary site is removed
            serve(host, port, open_browser=not no_browser, echo=click.echo, lang=lang)
    except (KniffelError, OSError) as e:
        fail("web", e, lang)
    except KeyboardInterrupt:
        pass  # the way to stop the server (it says so), not a failure
