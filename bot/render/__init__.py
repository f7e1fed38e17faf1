"""Pictures of a campaign: the map (PNG and SVG, from one layout) and the history charts, drawn with Pillow.

Everything is drawn from a ruleset's ``picture(state)`` (engine/ruleset.py ``Picture``), never from a game's
own state: ``map_png.render_png(picture)`` and ``map_svg.render_svg(picture)`` draw a grid map (``layout.py``)
or an area map (``coast_layout.py``); ``charts.render_chart(picture, kind)`` draws one of ``picture.charts``;
``pictures.pictures(ruleset, state)`` gives what the bot attaches; ``cli.add_commands`` adds ``legatus map``
and ``legatus chart``.
"""
