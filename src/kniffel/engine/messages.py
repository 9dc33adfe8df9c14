"""The words kniffel shows a player, in German and English: one catalog for every front end.

Every :class:`~kniffel.engine.errors.KniffelError` carries a ``code`` and ``params``; :func:`render`
turns it into a plain sentence for a player (never the English developer message, which stays in
``str(error)`` for Python users and logs). The command line, the terminal game, the advisor and
the browser (through the bridge's error replies) all render from :data:`CATALOG`; :func:`text`
gives the other catalog entries (the command line's own sentences).

Parameters are shown in the player's language where they name something of the game: ``box``,
``boxes`` and ``strikes`` (box ids) as box names, ``rules`` (a rule-set id) as its title,
``strategy``/``strategies`` as strategy names, ``die`` as "W6"/"W10" or "d6"/"d10", ``roll`` and
``keep`` (``{"d6": [...], "d10": n}``) as dice, ``cause`` (an error inside this one) rendered
itself; a ``where`` (a file) that the sentence does not use leads it: ``"games.json: …"``.
"""

from __future__ import annotations

import string
from collections.abc import Mapping, Sequence
from typing import Any

from kniffel.engine.rules import BOX_TEXTS, Box, Lang, preset

#: code -> (German, English). Placeholders are ``str.format`` fields filled from the params.
CATALOG: dict[str, tuple[str, str]] = {
    # the fallbacks: an error without a catalog entry, or not a kniffel error at all
    "error": ("Das geht nicht.", "That is not possible."),
    "unexpected": ("Ein unerwarteter Fehler ist aufgetreten.", "Something unexpected went wrong."),
    # dice
    "dice.invalid": ("Diese Würfel gibt es nicht.", "These dice cannot exist."),
    "dice.not_a_number": ("Ein Würfel muss eine ganze Zahl zeigen, nicht {value}.",
                          "A die must show a whole number, not {value}."),
    "dice.face_out_of_range": ("Ein {die} zeigt {low} bis {high}, nicht {value}.",
                               "A {die} shows {low} to {high}, not {value}."),
    "dice.wrong_count": ("Gebraucht werden {want} Würfel, eingegeben wurden {got}.",
                         "{want} dice are needed, {got} were given."),
    "dice.wrong_count_d10": ("Gebraucht werden {want} Würfel (fünf W6, dann der W10), "
                             "eingegeben wurden {got}.",
                             "{want} dice are needed (five d6, then the d10), {got} were given."),
    "dice.d10_missing": ("{rules} wird mit einem W10 gespielt, aber dieser Wurf hat keinen.",
                         "{rules} is played with a d10, but this roll has none."),
    "dice.d10_extra": ("{rules} hat keinen W10, aber dieser Wurf hat einen.",
                       "{rules} has no d10, but this roll has one."),
    # keeping dice
    "keep.invalid": ("Diese Würfel können nicht behalten werden.", "These dice cannot be kept."),
    "keep.too_many": ("Höchstens {most} W6 können behalten werden, nicht {got}.",
                      "At most {most} d6 can be kept, not {got}."),
    "keep.not_in_roll": ("{keep} liegt nicht im Wurf {roll}.", "{keep} is not in the roll {roll}."),
    "keep.no_such_die": ("Es gibt keinen Würfel Nr. {position}; der Wurf hat {count} Würfel.",
                         "There is no die #{position}; the roll has {count} dice."),
    "keep.no_d10": ("Dieses Regelwerk hat keinen W10 zum Behalten.",
                    "This rule set has no d10 to keep."),
    # boxes and rule sets
    "box.unknown": ("Ein Kästchen „{name}“ gibt es nicht.", "There is no box \"{name}\"."),
    "box.not_in_rules": ("{rules} hat kein Kästchen „{box}“.", "{rules} has no box \"{box}\"."),
    "rules.unknown": ("Ein Regelwerk „{name}“ gibt es nicht; die Regelwerke sind: {choices}.",
                      "There is no rule set \"{name}\"; the rule sets are: {choices}."),
    # moves
    "move.illegal": ("Dieser Zug ist nicht erlaubt.", "This move is not allowed."),
    "move.game_over": ("Das Spiel ist vorbei.", "The game is over."),
    "move.not_your_turn": ("{player} ist am Zug, nicht {other}.",
                           "It is {player}'s turn, not {other}'s."),
    "move.dice_rolling": ("Die Würfel rollen noch.", "The dice are still rolling."),
    "move.no_pending_throw": ("Es wird gerade nicht gewürfelt.", "No throw is waiting for dice."),
    "move.no_throws_left": ("Alle {rolls} Würfe sind verbraucht: trag den Wurf in ein Kästchen "
                            "ein.", "All {rolls} throws are used: enter the roll in a box."),
    "move.no_throws_left_chip": ("Alle {rolls} Würfe sind verbraucht: trag den Wurf ein oder gib "
                                 "einen Chip für einen weiteren Wurf ab.",
                                 "All {rolls} throws are used: enter the roll in a box or hand "
                                 "in a chip for one more throw."),
    "move.first_throw_all": ("Der erste Wurf eines Zuges wirft alle Würfel.",
                             "The first throw of a turn throws all dice."),
    "move.keep_all": ("Wer alle Würfel behält, wirft nichts.",
                      "Keeping every die throws nothing."),
    "move.outcome_without_kept": ("Der Wurf {roll} enthält die behaltenen Würfel {keep} nicht.",
                                  "The roll {roll} does not hold the kept dice {keep}."),
    "move.throw_first": ("Erst würfeln, dann eintragen.", "Throw the dice before entering a box."),
    "move.cannot_score": ("Der Wurf {roll} darf nicht in {box}. Möglich: {boxes}.",
                          "The roll {roll} may not go in {box}. Possible: {boxes}."),
    "move.cannot_score_or_strike": ("Der Wurf {roll} darf nicht in {box}. Möglich: {boxes}; "
                                    "streichen: {strikes}.",
                                    "The roll {roll} may not go in {box}. Possible: {boxes}; "
                                    "strike: {strikes}."),
    "move.cannot_score_strike_only": ("Der Wurf {roll} passt in kein offenes Kästchen: "
                                      "streiche eines ({strikes}).",
                                      "The roll {roll} fits no open box: strike one "
                                      "({strikes})."),
    "move.cannot_strike": ("{box} darf jetzt nicht gestrichen werden: der Wurf {roll} passt in "
                           "{boxes}.",
                           "{box} may not be struck now: the roll {roll} fits {boxes}."),
    "move.box_filled": ("{box} ist schon belegt ({points}).",
                        "{box} is already filled ({points})."),
    "move.points_impossible": ("{box} kann nicht {points} Punkte haben; möglich: {possible}.",
                               "{box} cannot hold {points} points; possible: {possible}."),
    "move.extra_kniffel_not_allowed": (
        "Extrapunkte für einen weiteren Kniffel gibt es nur, wenn die Regeln sie vorsehen und "
        "im Kniffel-Kästchen 50 stehen.",
        "Extra points for a further Kniffel need rules that grant them and 50 in the kniffel "
        "box."),
    "move.kniffel_filled": ("Das Kniffel-Kästchen ist schon belegt.",
                            "The kniffel box is already filled."),
    "move.zero_is_strike": ("0 Punkte in {box} heißt streichen.", "0 points in {box} is a strike."),
    "move.pad_only": ("Das geht nur auf dem Spielblock (ohne virtuelle Würfel).",
                      "That works only on the score pad (without virtual dice)."),
    "move.dice_only": ("Das geht nur im Spiel mit virtuellen Würfeln.",
                       "That works only in a game with virtual dice."),
    "move.not_an_action": ("Das ist kein Spielzug.", "That is not a move."),
    "undo.nothing": ("Es gibt nichts zurückzunehmen.", "There is nothing to undo."),
    "correct.pad_only": ("Einträge korrigieren geht nur auf dem Block; mit virtuellen Würfeln "
                         "folgt jeder Eintrag aus den Würfeln.",
                         "Entries can be corrected on the score pad only; with virtual dice every "
                         "entry follows from the dice."),
    "correct.box_open": ("{box} von {player} ist noch offen: trag es ein, wenn {player} dran ist.",
                         "{player}'s {box} is still open: enter it on {player}'s turn."),
    "correct.zero_is_strike": ("0 Punkte heißt streichen: wähle „Streichen“.",
                               "0 points is a strike: choose \"Strike\"."),
    "correct.unchanged": ("{box} von {player} hat schon genau diesen Wert.",
                          "{player}'s {box} already holds exactly this value."),
    "correct.extra_kniffel": ("Die Extra-Kniffel-Punkte von {player} hängen am Kniffel-Feld: "
                              "erst sie zurücknehmen, dann das Feld ändern.",
                              "{player}'s extra Kniffel points depend on the Kniffel box: undo "
                              "them before changing it."),
    "link.not_a_game": ("Der Link enthält kein Kniffel-Spiel.",
                        "The link does not carry a kniffel game."),
    "link.too_large": ("Das Spiel im Link ist zu groß.", "The game in the link is too large."),
    "link.damaged": ("Der Link ist beschädigt: das Spiel kann nicht gelesen werden.",
                     "The link is damaged: its game cannot be read."),
    "match.dice_pending": ("Erst müssen die Würfel fallen.", "The dice have to land first."),
    # chips
    "chip.none_in_rules": ("{rules} hat keine Chips.", "{rules} has no chips."),
    "chip.all_used": ("Alle Chips sind verbraucht.", "All chips are used."),
    "chip.one_per_turn": ("Pro Zug geht nur ein Chip.", "Only one chip per turn."),
    "chip.too_early": ("Ein Chip gibt einen weiteren Wurf nach dem {rolls}. Wurf; bisher "
                       "{used} Würfe.", "A chip buys one more throw after the {rolls}rd throw; "
                       "{used} so far."),
    # players and games
    "game.invalid": ("Dieses Spiel kann so nicht beginnen.", "This game cannot be set up."),
    "player.name_not_text": ("Ein Spielername muss Text sein.", "A player's name must be text."),
    "player.name_empty": ("Ein Spielername darf nicht leer sein.",
                          "A player's name must not be empty."),
    "player.name_too_long": ("Der Name „{name}…“ ist länger als {most} Zeichen.",
                             "The name \"{name}…\" is longer than {most} characters."),
    "player.name_control": ("Der Name {name} enthält Steuerzeichen.",
                            "The name {name} holds control characters."),
    "player.kind_unknown": ("Unbekannte Spielerart „{kind}“.",
                            "Unknown kind of player \"{kind}\"."),
    "game.player_count": ("Ein Spiel hat 1 bis {most} Spieler, nicht {got}.",
                          "A game has 1 to {most} players, not {got}."),
    "game.duplicate_name": ("Zwei Spieler heißen „{name}“ (Groß-/Kleinschreibung zählt nicht).",
                            "Two players are called \"{name}\" (ignoring case)."),
    "game.mode_unknown": ("Unbekannte Spielart „{mode}“.", "Unknown mode \"{mode}\"."),
    "game.seed": ("Der Startwert muss eine ganze Zahl sein, nicht {seed}.",
                  "The seed must be a whole number, not {seed}."),
    "game.start_player": ("Startspieler {start} gibt es nicht; das Spiel hat {count} Spieler.",
                          "There is no start player {start}; the game has {count} players."),
    "game.no_such_player": ("Spieler {player} gibt es nicht; das Spiel hat {count} Spieler.",
                            "There is no player {player}; the game has {count} players."),
    "game.action_refused": ("Zug {number} des Spiels ist nicht erlaubt: {cause}",
                            "Move {number} of the game is not allowed: {cause}"),
    # saved games and files
    "save.invalid": ("Der Spielstand kann nicht gelesen werden.", "The saved game cannot be read."),
    "save.corrupt": ("Der Spielstand ist beschädigt.", "The saved game is damaged."),
    "save.not_a_save": ("Das ist kein Kniffel-Spielstand.", "This is not a kniffel saved game."),
    "save.bad_version": ("Der Spielstand hat keine gültige Versionsnummer.",
                         "The saved game has no valid version number."),
    "save.newer_version": ("Der Spielstand stammt von einer neueren Kniffel-Version (Format "
                           "{version}, diese liest bis {known}); bitte Kniffel aktualisieren.",
                           "The saved game comes from a newer kniffel (format {version}, this one "
                           "reads up to {known}); please update kniffel."),
    "save.bad_action": ("Der Spielstand enthält einen beschädigten Zug.",
                        "The saved game holds a damaged move."),
    "save.bad_value": ("Der Spielstand enthält einen beschädigten Eintrag.",
                       "The saved game holds a damaged entry."),
    "save.missing_field": ("Der Spielstand ist unvollständig; es fehlt ein Teil: {field}.",
                           "The saved game is incomplete; a part is missing: {field}."),
    "save.invalid_game": ("Der Spielstand ist kein gültiges Spiel: {cause}",
                          "The saved game is not a valid game: {cause}"),
    "file.not_text": ("Die Datei ist kein Text.", "The file is not text."),
    "file.not_utf8": ("Die Datei ist kein UTF-8-Text.", "The file is not UTF-8 text."),
    "file.not_json": ("Die Datei ist kein gültiges JSON.", "The file is not valid JSON."),
    "file.truncated": ("Die Datei ist abgeschnitten (unvollständig).",
                       "The file is truncated (incomplete)."),
    # computer players
    "strategy.unknown": ("Einen Computerspieler „{name}“ gibt es nicht; es gibt: {strategies}.",
                         "There is no computer player \"{name}\"; there are: {strategies}."),
    "strategy.bad_name": ("Der Name eines Computerspielers ist Text in Kleinbuchstaben, nicht "
                          "{name}.", "A computer player's name is lower-case text, not {name}."),
    "simulate.games": ("Es muss mindestens ein Spiel sein, nicht {games}.",
                       "There must be at least one game, not {games}."),
    "review.needs_dice": ("Eine Auswertung braucht ein Spiel mit virtuellen Würfeln: der Block "
                          "kennt die Würfel nicht.",
                          "A review needs a game played with virtual dice: a score pad does not "
                          "record the dice."),
    "simulate.jobs": ("Es muss mindestens ein Prozess sein, nicht {jobs}.",
                      "There must be at least one process, not {jobs}."),
    # the history database
    "history.unusable": ("Der Spielverlauf kann nicht benutzt werden.",
                         "The game history cannot be used."),
    "history.corrupt": ("Der Spielverlauf ist beschädigt.", "The game history is damaged."),
    "history.locked": ("Ein anderes Programm sperrt den Spielverlauf; bitte schließen und noch "
                       "einmal versuchen. Es wurde nichts geändert.",
                       "Another program holds the game history locked; close it and try again. "
                       "Nothing was changed."),
    "history.damaged": ("Der Spielverlauf ist beschädigt; er bleibt, wie er ist.",
                        "The game history is damaged; it was left as it is."),
    "history.is_folder": ("Das ist ein Ordner, keine Spielverlauf-Datenbank.",
                          "This is a folder, not a history database."),
    "history.no_folder": ("Der Ordner für den Spielverlauf kann nicht angelegt werden.",
                          "The folder of the history database cannot be created."),
    "history.cannot_open": ("Der Spielverlauf kann nicht geöffnet werden.",
                            "The history database cannot be opened."),
    "history.not_kniffel": ("Das ist eine SQLite-Datenbank, aber kein Kniffel-Spielverlauf; sie "
                            "bleibt, wie sie ist.",
                            "This is a SQLite database, but not a kniffel history; it was left as "
                            "it is."),
    "history.newer_version": ("Der Spielverlauf stammt von einer neueren Kniffel-Version (Schema "
                              "{version}, diese kennt bis {known}); bitte Kniffel aktualisieren. "
                              "Er bleibt, wie er ist.",
                              "The history comes from a newer kniffel (schema {version}, this one "
                              "knows up to {known}); please update kniffel. It was left as it "
                              "is."),
    "history.no_such_game": ("Im Spielverlauf gibt es kein Spiel Nr. {id}.",
                             "There is no game #{id} in the history."),
    "history.game_damaged": ("Spiel Nr. {id} im Spielverlauf ist beschädigt.",
                             "Game #{id} in the history is damaged."),
    # --- history database faults (issue 19)
    "history.read_only": ("{where} ist schreibgeschützt: der Spielverlauf lässt sich lesen, "
                          "aber nicht ändern.",
                          "{where} is read-only: the game history can be read but not changed."),
    "history.cannot_create": ("{where} kann nicht angelegt werden: der Ordner ist "
                              "schreibgeschützt.",
                              "{where} cannot be created: its folder is read-only."),
    "history.full": ("{where} kann nicht wachsen: der Speicherplatz ist voll.",
                     "{where} cannot grow: there is no space left."),
    "history.not_database": ("{where} ist keine Datenbank, also kein Kniffel-Spielverlauf; die "
                             "Datei bleibt, wie sie ist.",
                             "{where} is not a database, so not a kniffel history; the file was "
                             "left as it is."),
    "history.io_error": ("{where} kann nicht gelesen oder geschrieben werden (Ein-/Ausgabefehler); "
                         "es wurde nichts geändert.",
                         "{where} cannot be read or written (an input/output error); nothing was "
                         "changed."),
    # history files (export / import)
    "import.invalid": ("Die Datei kann nicht importiert werden; es wurde nichts geändert.",
                       "The file cannot be imported; nothing was changed."),
    "import.not_history": ("Das ist keine Kniffel-Verlaufsdatei.",
                           "This is not a kniffel history file."),
    "import.bad_version": ("Die Verlaufsdatei hat keine gültige Versionsnummer.",
                           "The history file has no valid version number."),
    "import.newer_version": ("Die Verlaufsdatei stammt von einer neueren Kniffel-Version "
                             "(Version {version}, diese liest bis {known}); bitte Kniffel "
                             "aktualisieren.",
                             "The history file comes from a newer kniffel (version {version}, "
                             "this one reads up to {known}); please update kniffel."),
    "import.games_not_list": ("Die Verlaufsdatei enthält keine Liste von Spielen.",
                              "The history file holds no list of games."),
    "import.too_many": ("Die Verlaufsdatei enthält {count} Spiele, mehr als {most}.",
                        "The history file holds {count} games, more than {most}."),
    "import.uid_twice": ("Spiel {number} der Datei steht zweimal darin.",
                         "Game {number} of the file appears twice."),
    "import.entry_not_object": ("Spiel {number} der Datei ist beschädigt.",
                                "Game {number} of the file is damaged."),
    "import.game_invalid": ("Spiel {number} der Datei: {cause}",
                            "Game {number} of the file: {cause}"),
    "import.finished_not_over": ("Spiel {number} der Datei ist als beendet markiert, ist aber "
                                 "nicht zu Ende.",
                                 "Game {number} of the file is marked finished but is not over."),
    "import.field_not_text": ("Bei Spiel {number} der Datei fehlt ein Teil oder ist beschädigt: "
                              "{field}.",
                              "Game {number} of the file lacks a part or it is damaged: {field}."),
    # the advisor and the solver
    "advise.box_twice": ("Das Kästchen {box} ist zweimal angegeben.",
                         "The box {box} is given twice."),
    "advise.points_not_number": ("„{text}“: die Punkte müssen eine Zahl sein.",
                                 "\"{text}\": the points must be a number."),
    "advise.points_impossible": ("{box} kann in {rules} nicht {points} Punkte haben.",
                                 "{box} cannot hold {points} points in {rules}."),
    "advise.chips_range": ("In {rules} sind 0 bis {most} Chips übrig, nicht {got}.",
                           "{rules} leaves 0 to {most} chips, not {got}."),
    "advise.chip_used_but_all_left": ("In diesem Zug wurde ein Chip abgegeben, aber noch {chips} "
                                      "von {most} Chips sind übrig.",
                                      "A chip was handed in this turn, but {chips} of {most} "
                                      "chips are left."),
    "advise.dice_needed": ("Nach einem Wurf braucht der Rat die Würfel.",
                           "After a throw the advice needs the dice."),
    "advise.rolls_used_range": ("Würfe in diesem Zug: 1 bis {most}, nicht {got}.",
                                "Throws this turn: 1 to {most}, not {got}."),
    "advise.chip_too_early": ("Ein Chip wird nach dem {rolls}. Wurf abgegeben, aber erst {got} "
                              "Würfe sind gemacht.",
                              "A chip is handed in after the {rolls}rd throw, but only {got} "
                              "throws were made."),
    "advise.sheet_full": ("Der Block ist voll: es gibt nichts zu entscheiden.",
                          "The sheet is full: there is nothing to decide."),
    "advise.needs_dice_mode": ("Rat gibt es nur für Spiele mit virtuellen Würfeln.",
                               "Advice needs a game with virtual dice."),
    "solver.error": ("Der Löser kann das nicht berechnen.", "The solver cannot compute this."),
    "solver.wrong_rules": ("Dieser Ratgeber ist für {rules}, nicht für {other}.",
                           "This advisor is for {rules}, not {other}."),
    "solver.threads": ("Threads: 1 bis {most}, nicht {got}.", "Threads: 1 to {most}, not {got}."),
    "solver.max_open_range": ("--max-open: 0 bis {most} für {rules}, nicht {got}.",
                              "--max-open: 0 to {most} for {rules}, not {got}."),
    "solver.kernel_missing": ("Der übersetzte Rechenkern des Lösers fehlt in {path}: kniffel "
                              "neu installieren (scripts/setup.sh), damit er gebaut wird.",
                              "The solver's compiled kernel is missing in {path}: reinstall "
                              "kniffel (scripts/setup.sh) so that it is built."),
    "solver.sample_unreadable": ("{path} ist keine lesbare Stichprobe einer Wertetabelle: "
                                 "{error}",
                                 "{path} is not a readable value-table sample: {error}"),
    "solver.sample_version": ("{path} hat das Stichprobenformat {got}, gelesen wird {want}.",
                              "{path} is sample format {got}; this version reads {want}."),
    "solver.table_mismatch": ("Eine Wertetabelle ist beschädigt oder passt nicht.",
                              "A value table is damaged or does not match."),
    "solver.no_table": ("Es gibt noch keine Wertetabelle dafür.",
                        "There is no value table for it yet."),
    "solver.table_missing": (
        "Für {rules} mit {open} offenen Kästchen gibt es keine Wertetabelle (sofort gerechnet "
        "werden Endspiele bis {most} offene Kästchen). Die volle Tabelle kostet etwa {minutes} "
        "Minuten Rechenzeit und {size} Platz: kniffel solve --rules {rules_id}. Schneller, nur "
        "die Endspiele bis hierher: kniffel solve --rules {rules_id} --max-open {open}",
        "No value table of {rules} covers {open} open boxes (endgames up to {most} open boxes "
        "are solved on the spot). The full table takes about {minutes} minutes and {size}: "
        "kniffel solve --rules {rules_id}. Quicker, only the endgames up to here: kniffel solve "
        "--rules {rules_id} --max-open {open}"),
    "solver.table_missing_full": (
        "Für {rules} gibt es keine Wertetabelle (sofort gerechnet werden nur Endspiele bis {most} "
        "offene Kästchen; hier sind es {open}). Die volle Tabelle kostet etwa {minutes} Minuten "
        "Rechenzeit und {size} Platz: kniffel solve --rules {rules_id}. Eine Tabelle nur der "
        "Endspiele mit höchstens K offenen Kästchen geht schneller: kniffel solve --rules "
        "{rules_id} --max-open K",
        "There is no value table of {rules} (only endgames up to {most} open boxes are solved on "
        "the spot; this sheet has {open}). The full table takes about {minutes} minutes and "
        "{size}: kniffel solve --rules {rules_id}. A table of only the endgames with at most K "
        "open boxes is quicker: kniffel solve --rules {rules_id} --max-open K"),
    "solver.optimal_needs_table": (
        "Der optimale Spieler braucht für {rules} die volle Wertetabelle (etwa {minutes} Minuten "
        "Rechenzeit, {size}): kniffel solve --rules {rules_id}",
        "The optimal player of {rules} needs the full value table (about {minutes} minutes, "
        "{size}): kniffel solve --rules {rules_id}"),
    # the choices of a hint or a review, in words (kniffel.engine.advice.Option.describe)
    "advice.throw_all": ("Alle Würfel werfen", "Throw all dice"),
    "advice.keep": ("Behalten: {kept}", "Keep: {kept}"),
    "advice.chip": ("Chip abgeben (4. Wurf)", "Hand in a chip (4th throw)"),
    "advice.score": ("{name}: {points} Punkte", "{name}: {points} points"),
    "advice.score_one": ("{name}: 1 Punkt", "{name}: 1 point"),
    "advice.strike": ("{name} streichen", "Strike {name}"),
    # the browser app's requests
    "web.bad_request": ("Die Anfrage der Seite ist fehlerhaft.",
                        "The page's request is malformed."),
    "web.no_game": ("Es ist kein Spiel geladen.", "No game is loaded."),
    "web.computer_needs_dice": ("Computerspieler spielen nur mit virtuellen Würfeln; auf dem "
                                "Block spielen nur Menschen.",
                                "Computer players play only with virtual dice; on the score pad "
                                "every player is a person."),
    "web.not_computer_turn": ("{player} ist ein Mensch: kein Computer ist am Zug.",
                              "{player} is a person: it is not a computer's turn."),
    "web.history_game_invalid": ("Spiel {number} des Verlaufs: {cause}",
                                 "Game {number} of the history: {cause}"),
    "web.setup": ("Die Browser-App kann nicht bereitgestellt werden.",
                  "The browser app cannot be set up."),
    "web.no_pyodide": ("Pyodide ist nicht installiert: im Projektordner „npm ci“ ausführen.",
                       "Pyodide is not installed: run \"npm ci\" in the project directory."),
    "web.not_a_folder": ("{where} gibt es schon und ist kein Ordner.",
                         "{where} exists and is not a folder."),
    "web.pyodide_incomplete": ("{where} ist kein vollständiges Pyodide-Paket.",
                               "{where} is not a complete Pyodide package."),
    # files the command line reads or writes
    "os.not_found": ("{where} gibt es nicht.", "{where} does not exist."),
    "os.permission": ("{where}: keine Berechtigung.", "{where}: permission denied."),
    "os.is_folder": ("{where} ist ein Ordner, keine Datei.", "{where} is a folder, not a file."),
    "os.not_a_folder": ("{where}: ein Teil des Pfades ist kein Ordner.",
                        "{where}: part of the path is not a folder."),
    "os.no_folder": ("{where} kann nicht geschrieben werden: den Ordner gibt es nicht.",
                     "{where} cannot be written: its folder does not exist."),
    "os.cannot_write": ("{where} kann nicht geschrieben werden.", "{where} cannot be written."),
    "os.error": ("{where} kann nicht gelesen oder geschrieben werden.",
                 "{where} cannot be read or written."),
    # --- kniffel history, stats and export --game (issue 19)
    "history.list.title": ("Spielverlauf", "Game history"),
    "history.list.started": ("Beginn", "Started"),
    "history.list.rules": ("Regeln", "Rules"),
    "history.list.players": ("Spieler und Punkte", "Players and totals"),
    "history.list.state": ("Stand", "State"),
    "history.list.finished": ("beendet", "finished"),
    "history.list.unfinished": ("offen ({actions} Züge)", "unfinished ({actions} actions)"),
    "history.list.empty": ("Noch keine Spiele gespeichert.", "No games stored yet."),
    "history.stats.title": ("Statistik: {rules}", "Statistics: {rules}"),
    "history.stats.player": ("Spieler", "Player"),
    "history.stats.games": ("Spiele", "Games"),
    "history.stats.wins": ("Siege", "Wins"),
    "history.stats.average": ("Ø Punkte", "Average"),
    "history.stats.best": ("Bestwert", "Best"),
    "history.stats.bonus": ("Bonus", "Bonus rate"),
    "history.stats.kniffel": ("Kniffel", "Kniffel rate"),
    "history.stats.legend": ("Bonus, Kniffel: Anteil der Spiele mit Bonus und mit mindestens "
                             "einem Kniffel.",
                             "Bonus rate, Kniffel rate: the share of games with the bonus and "
                             "with at least one Kniffel."),
    "history.stats.none": ("Keine beendeten Spiele.", "No finished games."),
    "history.stats.none_for": ("Keine beendeten Spiele ({player}).",
                               "No finished games ({player})."),
    "history.exported_game": ("Spiel Nr. {id} → {where}", "Game #{id} → {where}"),
    # --- files a command writes: target safety (issue 19)
    "target.is_history": ("{where} ist der Spielverlauf selbst; er wird nicht überschrieben.",
                          "{where} is the game history itself; it is not overwritten."),
    "target.is_database": ("{where} ist eine SQLite-Datenbank; sie wird nie überschrieben, auch "
                           "nicht mit --force.",
                           "{where} is a SQLite database; it is never overwritten, not even "
                           "with --force."),
    "target.exists": ("{where} gibt es schon; --force ersetzt die Datei.",
                      "{where} exists already; --force replaces it."),
    "target.is_folder": ("{where} ist ein Ordner, keine Datei.",
                         "{where} is a folder, not a file."),
    "target.no_folder": ("{where} kann nicht geschrieben werden: den Ordner {folder} gibt es "
                         "nicht (er wird nicht angelegt).",
                         "{where} cannot be written: the folder {folder} does not exist (it is "
                         "not created)."),
    "target.not_a_folder": ("{where} kann nicht geschrieben werden: {folder} ist kein Ordner.",
                            "{where} cannot be written: {folder} is not a folder."),
    "target.read_only": ("{where} ist schreibgeschützt; die Datei bleibt, wie sie ist.",
                         "{where} is read-only; the file was left as it is."),
    "target.folder_read_only": ("{where} kann nicht geschrieben werden: der Ordner {folder} ist "
                                "schreibgeschützt.",
                                "{where} cannot be written: the folder {folder} is read-only."),
    "target.no_space": ("{where} kann nicht geschrieben werden: der Speicherplatz ist voll.",
                        "{where} cannot be written: there is no space left."),
    "target.cannot_write": ("{where} kann nicht geschrieben werden.",
                            "{where} cannot be written."),
    # the command line's own sentences
    "cli.line": ("Zeile {line}", "line {line}"),
    "cli.no_database": ("Es gibt noch keinen Spielverlauf ({where}); es wurde keiner angelegt.",
                        "There is no game history yet ({where}); none was created."),
    "cli.exported": ("{count} Spiele → {where}", "{count} games → {where}"),
    "cli.imported": ("{imported} neue Spiele importiert, {skipped} schon gespeichert "
                     "(übersprungen).",
                     "{imported} new games imported, {skipped} already stored (skipped)."),
    "cli.nothing_imported": ("Es wurde nichts importiert.", "Nothing was imported."),
    "cli.no_gpu": ("--device gpu: diese Version hat keinen GPU-Kern; bitte --device cpu.",
                   "--device gpu: this build has no GPU kernel; use --device cpu."),
    "cli.interrupted": ("unterbrochen — was bis zur letzten Sicherung (höchstens zwei Minuten "
                        "zurück) berechnet war, bleibt; derselbe Befehl macht dort weiter.",
                        "interrupted — the work up to the last checkpoint (at most two minutes "
                        "back) is kept; run the same command again to resume there."),
    "cli.table": ("Tabelle: {where} ({states} Zustände, {threads} Threads)",
                  "Table: {where} ({states} states, {threads} threads)"),
    "cli.computed_in": ("berechnet in {seconds} s (der letzte Lauf)",
                        "computed in {seconds} s (the last run)"),
    "cli.expected_score": ("Erwartete Punktzahl bei optimalem Spiel ({rules}): {score}",
                           "Expected score of optimal play ({rules}): {score}"),
    "cli.endgames": ("Endspiele mit höchstens {most} offenen Kästchen",
                     "Endgames with at most {most} open boxes"),
    "cli.build_now": ("Tabelle jetzt berechnen?", "Build the table now?"),
    "cli.site_written": ("{count} Dateien in {where} (Build {build}, Pyodide {pyodide})",
                         "{count} files in {where} (build {build}, pyodide {pyodide})"),
    "cli.no_unfinished": ("Es gibt kein offenes Spiel zum Fortsetzen.",
                          "There is no unfinished game to resume."),
    "cli.game_saved": ("Spiel gespeichert – weiter mit: kniffel play --resume",
                       "Game saved – continue with: kniffel play --resume"),
    # --- click's own messages, in the user's language (issue 19): the command line's frame
    "cli.click.help_hint": ("Hilfe: {command} --help", "Help: {command} --help"),
    "cli.click.interrupted": ("Abgebrochen.", "Interrupted."),
    "cli.click.no_answer": ("Keine Antwort: die Eingabe ist zu Ende.",
                            "No answer: the input has ended."),
    "cli.click.usage": ("So kann dieser Befehl nicht aufgerufen werden.",
                        "This command cannot be called like this."),
    "cli.click.no_such_option": ("Eine Option {option} gibt es nicht.",
                                 "There is no option {option}."),
    "cli.click.no_such_option_near": ("Eine Option {option} gibt es nicht; gemeint ist "
                                      "vielleicht {possible}.",
                                      "There is no option {option}; did you mean {possible}?"),
    "cli.click.no_such_command": ("Einen Befehl „{command}“ gibt es nicht; die Befehle sind: "
                                  "{commands}.",
                                  "There is no command \"{command}\"; the commands are: "
                                  "{commands}."),
    "cli.click.no_such_command_near": ("Einen Befehl „{command}“ gibt es nicht; gemeint ist "
                                       "vielleicht {possible}.",
                                       "There is no command \"{command}\"; did you mean "
                                       "{possible}?"),
    "cli.click.missing_argument": ("Das Argument {name} fehlt.", "The argument {name} is missing."),
    "cli.click.missing_option": ("Die Option {name} fehlt.", "The option {name} is missing."),
    "cli.click.needs_value": ("{option} braucht einen Wert.", "{option} needs a value."),
    "cli.click.takes_no_value": ("{option} nimmt keinen Wert.", "{option} takes no value."),
    "cli.click.extra_arguments": ("Mit {args} kann dieser Befehl nichts anfangen.",
                                  "This command does not take {args}."),
    "cli.click.choice": ("„{value}“ steht nicht zur Wahl; möglich sind: {choices}.",
                         "\"{value}\" is not a choice; the choices are: {choices}."),
    "cli.click.not_whole": ("Gebraucht wird eine ganze Zahl, nicht „{value}“.",
                            "A whole number is needed, not \"{value}\"."),
    "cli.click.not_number": ("Gebraucht wird eine Zahl, nicht „{value}“.",
                             "A number is needed, not \"{value}\"."),
    "cli.click.range": ("Erlaubt ist {range}, nicht {value}.", "Allowed is {range}, not {value}."),
    "cli.click.range.at_least": ("mindestens {low}", "at least {low}"),
    "cli.click.range.more_than": ("mehr als {low}", "more than {low}"),
    "cli.click.range.at_most": ("höchstens {high}", "at most {high}"),
    "cli.click.range.less_than": ("weniger als {high}", "less than {high}"),
    "cli.click.range.between": ("{low} bis {high}", "{low} to {high}"),
    "cli.click.range.both": ("{low} und {high}", "{low} and {high}"),
    "cli.click.bad_value": ("„{value}“ passt hier nicht.", "\"{value}\" does not fit here."),
    "cli.confirm.suffix": ("[j/N]", "[y/N]"),
    "cli.confirm.again": ("Bitte mit j (ja) oder n (nein) antworten.",
                          "Please answer y (yes) or n (no)."),
    "cli.click.path_is_file": ("{where} ist eine Datei, kein Ordner.",
                               "{where} is a file, not a folder."),
    "cli.free_strike_changes_nothing": (
        "--free-strike ändert an {rules} nichts: dort darf der Wurf ohnehin jederzeit in ein "
        "freies Kästchen nach Wahl, auch mit 0 Punkten.",
        "--free-strike changes nothing in {rules}: there a roll may go in any open box at any "
        "time anyway, for 0 points too."),
    # --- score, rules, show (issue 19)
    "cli.roll": ("Wurf {dice}", "Roll {dice}"),
    "cli.col.box": ("Kästchen", "Box"),
    "cli.col.points": ("Punkte", "Points"),
    "cli.col.fits": ("passt", "fits"),
    "cli.col.condition": ("Bedingung", "Condition"),
    "cli.yes": ("ja", "yes"),
    "cli.points.face_sum": ("Summe der {face}er ({low}–{high})",
                            "sum of the {face}s ({low}–{high})"),
    "cli.points.double_sum": ("2× Summe", "2× sum"),
    "cli.points.sum": ("Summe", "sum"),
    "cli.sheet.upper_sum": ("Summe oben", "Upper sum"),
    "cli.sheet.to_bonus": ("noch bis Bonus", "to bonus"),
    "cli.sheet.lower_sum": ("Summe unten", "Lower sum"),
    "cli.sheet.extra_kniffel": ("Extra-Kniffel", "Extra Kniffel"),
    "cli.sheet.total": ("Gesamt", "Total"),
    # --help's headings
    "cli.help.usage": ("Aufruf: ", "Usage: "),
    "cli.help.options": ("Optionen", "Options"),
    "cli.help.arguments": ("Argumente", "Arguments"),
    "cli.help.commands": ("Befehle", "Commands"),
    "cli.help.default": ("Standard", "default"),
    "cli.help.required": ("Pflicht", "required"),
    "cli.help.help": ("Diese Hilfe zeigen und beenden.", "Show this help and exit."),
    "cli.help.version": ("Die Version zeigen und beenden.", "Show the version and exit."),
    "cli.help.options_metavar": ("[OPTIONEN]", "[OPTIONS]"),
    "cli.help.command_metavar": ("BEFEHL [ARGUMENTE]...", "COMMAND [ARGS]..."),
    "cli.help.metavar.integer": ("GANZZAHL", "INTEGER"),
    "cli.help.metavar.number": ("ZAHL", "NUMBER"),
    "cli.help.metavar.file": ("DATEI", "FILE"),
    "cli.help.metavar.folder": ("ORDNER", "FOLDER"),
    "cli.help.metavar.path": ("PFAD", "PATH"),
    # expert (issue 12)
    "expert.error": ("Der Experte kann hier nicht spielen.", "The expert cannot play here."),
    "expert.wrong_rules": ("Dieser Experte spielt {rules}, nicht {other}.",
                           "This expert plays {rules}, not {other}."),
    "expert.table_missing": ("Der Experte braucht für {rules} die genaue Wertetabelle (etwa eine "
                             "Sekunde Rechenzeit): kniffel solve --rules {rules_id}",
                             "The expert needs the exact value table of {rules} (about a second "
                             "to build): kniffel solve --rules {rules_id}"),
    "expert.table_mismatch": ("{where} ist nicht die Wertetabelle von {rules}: {problem}.",
                              "{where} is not the value table of {rules}: {problem}."),
    "expert.upper_impossible": ("Eine obere Summe von {upper} ist mit diesen Kästchen nicht "
                                "möglich.",
                                "An upper sum of {upper} cannot occur with these boxes."),
    "expert.model_missing": ("Für {rules} hat der Experte noch kein Wertemodell. Es entsteht aus "
                             "der Stichprobe der vollen Wertetabelle: {command}",
                             "The expert has no value model for {rules} yet. It is made from "
                             "the sample of the full value table: {command}"),
    "expert.model_unreadable": ("{where} ist keine lesbare Modelldatei des Experten.",
                                "{where} is not a readable model file of the expert."),
    "expert.model_version": ("{where} hat das Modellformat {got}; diese Version liest {want}. "
                             "Die Modelldatei passt nicht zu diesem Programm.",
                             "{where} has model format {got}; this version reads {want}. The "
                             "model file does not belong to this program."),
    "expert.model_rules": ("{where} wurde für andere Regeln berechnet als {rules}; der Experte "
                           "benutzt es nicht.",
                           "{where} was fitted to other rules than {rules}; the expert does not "
                           "use it."),
    "expert.model_checksum": ("{where} ist beschädigt: die Prüfsumme der Modellwerte stimmt "
                              "nicht.",
                              "{where} is damaged: the checksum of the model's values does not "
                              "match."),
    "expert.fit_diverged": ("Die Anpassung des Modells ergab keinen endlichen Wert ({value}).",
                            "Fitting the model gave a value that is not finite ({value})."),
    "expert.visits_table": ("Die Züge optimalen Spiels für {rules} kommen aus der vollen "
                            "Wertetabelle, nicht aus den Endspielen bis {open} offenen Feldern.",
                            "The moves of optimal play of {rules} come from the full value "
                            "table, not from its endgames up to {open} open boxes."),
    "expert.visits_mismatch": ("Die besuchten Zustände stammen aus einer anderen Wertetabelle "
                               "als die Stichprobe von {rules}; sie werden nicht zusammen "
                               "angepasst.",
                               "The visited states come from another value table than the "
                               "sample of {rules}; they are not fitted together."),
    "expert.review_fallback": ("≈ {count} Entscheidungen deckt keine genaue Wertetabelle ab: sie "
                               "hat der Experte bewertet (genau im Zug, am Zugende sein "
                               "Wertemodell), ihre Verluste sind Schätzungen.",
                               "≈ {count} decisions are covered by no exact value table: the "
                               "expert judged them (exact within the turn, its value model at "
                               "the turn's end), so their losses are estimates."),
    # web expert (issue 12)
    "web.expert.kind": ("Computer (Experte)", "Computer (expert)"),
    "web.expert.missing": ("Den Experten gibt es für {rules} in dieser Version noch nicht: sein "
                           "Wertemodell fehlt noch.",
                           "The expert is not available for {rules} in this version yet: its "
                           "value model is still missing."),
    # the dice game: a strike while throws are left is a deliberate choice, not the prompt
    "web.play.strike_open": ("Streichen …", "Strike …"),
    "web.play.no_fit_roll": ("Kein offenes Feld passt – würfle weiter.",
                             "No open box fits – roll again."),
    "web.hint.button": ("Tipp", "Hint"),
    "web.hint.button_label": ("Tipp: was bringt am meisten?", "Hint: what pays best?"),
    "web.hint.thinking": ("Der Experte rechnet …", "The expert is thinking …"),
    "web.hint.expected": ("im Schnitt {points} Punkte am Ende",
                          "on average {points} points at the end"),
    "web.hint.all": ("Alle Möglichkeiten", "All choices"),
    "web.hint.keep_these": ("Diese Würfel halten", "Keep these dice"),
    "web.hint.suggested": ("Tipp", "hint"),
    "web.hint.title": ("Tipp für {player}: jede Möglichkeit, die beste zuerst",
                       "Hint for {player}: every choice, the best first"),
    "web.hint.explain": ("„Im Schnitt“ sind die Punkte, die man am Spielende im Mittel hat, "
                         "wenn man von hier an bestens spielt; „kostet“ ist, wie viel weniger "
                         "als mit dem besten Zug.",
                         "“On average” is the final score one has on average when playing as "
                         "well as possible from here; “costs” is how much less than with the "
                         "best move."),
    "web.hint.col_choice": ("Möglichkeit", "Choice"),
    "web.hint.col_expected": ("Im Schnitt", "On average"),
    "web.hint.col_loss": ("Kostet", "Costs"),
    "web.hint.source.table": ("Exakt: aus der Wertetabelle des Regelwerks.",
                              "Exact: from the rule set's value table."),
    "web.hint.source.endgame": ("Exakt: das Endspiel wurde eben durchgerechnet.",
                                "Exact: the endgame was just worked out."),
    "web.hint.source.model": ("Geschätzt: der Experte rechnet diesen Zug exakt durch und "
                              "schätzt den Rest des Spiels mit seinem Wertemodell.",
                              "Estimated: the expert works out this turn exactly and estimates "
                              "the rest of the game with its value model."),
    "web.review.button": ("Auswertung", "Review"),
    "web.review.title": ("Auswertung", "Review"),
    "web.review.running": ("Die Entscheidungen werden bewertet …", "Judging the decisions …"),
    "web.review.summary": ("{name}: {count} Entscheidungen, zusammen {points} Punkte verloren.",
                           "{name}: {count} decisions, {points} points lost in all."),
    "web.review.perfect": ("{name}: {count} Entscheidungen, keine hat Punkte gekostet.",
                           "{name}: {count} decisions, none of them cost points."),
    "web.review.costliest": ("Die drei teuersten Entscheidungen", "The three costliest decisions"),
    "web.review.all": ("Alle Entscheidungen", "Every decision"),
    "web.review.taken": ("Gewählt: {choice}", "Taken: {choice}"),
    "web.review.better": ("Besser: {choice}", "Better: {choice}"),
    "web.review.was_best": ("Das war der beste Zug.", "That was the best move."),
    "web.review.moment": ("Runde {round}, {throw}. Wurf", "Round {round}, throw {throw}"),
    "web.review.moment_chip": ("Runde {round}, nach dem Chip", "Round {round}, after the chip"),
    "web.review.expected": ("Im Schnitt am Ende: {taken} statt {best} Punkte",
                            "On average at the end: {taken} instead of {best} points"),
    "web.review.back": ("Zurück", "Back"),
    "web.review.show": ("Block zeigen", "Show the sheet"),
    "web.review.col_loss": ("Kostet", "Costs"),
    "web.review.source.table": ("Bewertet mit der exakten Wertetabelle des Regelwerks.",
                                "Judged with the rule set's exact value table."),
    "web.review.source.model": ("Bewertet vom Experten: jeder Zug exakt, der Rest des Spiels "
                                "mit seinem Wertemodell geschätzt.",
                                "Judged by the expert: each turn exactly, the rest of the game "
                                "estimated with its value model."),
    # --- terminal game (kniffel play, issue 19: the words of tui.py, from this one catalog)
    "tui.setup": ("Neues Spiel", "New game"),
    "tui.rules": ("Regelwerk", "Rule set"),
    "tui.free_strike": ("Hausregel: jederzeit streichen", "House rule: strike any time"),
    "tui.player": ("Spieler", "Player"),
    "tui.human": ("Mensch", "Human"),
    "tui.computer": ("Computer", "Computer"),
    "tui.off": ("— spielt nicht —", "— not playing —"),
    "tui.start_player": ("Wer beginnt", "Who starts"),
    "tui.roll_off": ("auswürfeln", "roll off"),
    "tui.not_playing": ("{name} spielt nicht mit und kann nicht beginnen.",
                        "{name} is not playing and cannot start."),
    "tui.start": ("Los geht's", "Start"),
    "tui.setup_keys": ("[Enter] Los  [Tab] nächstes Feld  [Esc] beenden",
                       "[Enter] start  [Tab] next field  [Esc] quit"),
    "tui.box": ("Kästchen", "Box"),
    "tui.this_roll": ("Wurf", "Roll"),
    "tui.strike": ("streichen", "strike"),
    "tui.strike_short": ("str.", "str."),
    "tui.upper_sum": ("Summe oben", "Upper sum"),
    "tui.bonus_row": ("Bonus (−: fehlt)", "Bonus (−: to go)"),
    "tui.lower_sum": ("Summe unten", "Lower sum"),
    "tui.extra": ("{kniffel}-Bonus", "{kniffel} bonus"),
    "tui.chips": ("Chips", "Chips"),
    "tui.total": ("Gesamt", "Total"),
    "tui.turn": ("{name} ist dran", "{name}'s turn"),
    "tui.round": ("Runde {n}/{of}", "Round {n}/{of}"),
    "tui.throws": ("Wurf {used} von {allowed}", "throw {used} of {allowed}"),
    "tui.chips_left": ("Chips übrig: {n}", "chips left: {n}"),
    "tui.keys_roll": ("[r] würfeln", "[r] roll"),
    "tui.keys_keep": ("[1–{n}] halten", "[1–{n}] keep"),
    "tui.keys_enter": ("[↑↓ Enter] eintragen", "[↑↓ Enter] score"),
    "tui.keys_strike": ("[s] streichen", "[s] strike"),
    "tui.keys_chip": ("[c] Chip: 4. Wurf", "[c] chip: 4th throw"),
    "tui.keys_undo": ("[u] zurück", "[u] undo"),
    "tui.keys_quit": ("[q] beenden", "[q] quit"),
    "tui.keys_speed": ("[+/−] Tempo", "[+/−] speed"),
    "tui.keys_hint": ("[h] Tipp", "[h] hint"),
    "tui.d10": ("W10", "d10"),
    "tui.first_throw": ("Würfeln mit [r]", "Roll with [r]"),
    "tui.no_rolls": ("Keine Würfe mehr – trage ein oder streiche",
                     "No throws left – score or strike"),
    "tui.not_fit": ("{box} passt nicht zu diesem Wurf", "{box} does not fit this roll"),
    "tui.cannot_strike": ("{box} darf jetzt nicht gestrichen werden",
                          "{box} may not be struck now"),
    "tui.no_chip": ("Jetzt kein Chip möglich", "No chip possible now"),
    "tui.chip_used": ("{name} gibt einen Chip ab: ein 4. Wurf",
                      "{name} hands in a chip: a 4th throw"),
    "tui.keeps": ("{name} behält {dice}", "{name} keeps {dice}"),
    "tui.throws_dice": ("{name} würfelt: {dice}", "{name} throws: {dice}"),
    "tui.scores": ("{name}: {box} mit {points}", "{name}: {box} for {points}"),
    "tui.strikes": ("{name} streicht {box}", "{name} strikes {box}"),
    "tui.nothing": ("nichts", "nothing"),
    "tui.nothing_to_undo": ("Nichts zurückzunehmen", "Nothing to undo"),
    "tui.undone": ("Zurückgenommen", "Undone"),
    "tui.over": ("Spiel vorbei!", "Game over!"),
    "tui.speed": ("Tempo {s} s", "speed {s} s"),
    "tui.thinking": ("{name} denkt nach …", "{name} is thinking …"),
    "tui.building": ("{name} denkt nach … (baut beim ersten Zug Tabellen)",
                     "{name} is thinking … (building tables on the first move)"),
    "tui.starts": ("{name} beginnt", "{name} starts"),
    "tui.rolled_off": ("{name} beginnt (ausgewürfelt: {sums})",
                       "{name} starts (rolled off: {sums})"),
    "tui.log": ("Letzte Züge", "Last moves"),
    "tui.unsaved": ("⚠ Nicht gespeichert: {n} von {of} Zügen, neuer Versuch läuft. {why}",
                    "⚠ Not saved: {n} of {of} moves, retrying. {why}"),
    "tui.unsaved_undo": ("⚠ Der Verlauf enthält noch {n} zurückgenommene Züge, neuer Versuch "
                         "läuft. {why}",
                         "⚠ The history still holds {n} undone moves, retrying. {why}"),
    "tui.quit_unsaved": ("{n} Züge sind nicht gespeichert. [q] nochmal: trotzdem beenden",
                         "{n} moves are not saved. [q] again: quit anyway"),
    "tui.written_again": ("Der Verlauf ist wieder vollständig.",
                          "The history is complete again."),
    "tui.saved_resume": ("Spiel gespeichert – weiter mit: kniffel play --resume",
                         "Game saved – continue with: kniffel play --resume"),
    "tui.not_stored": ("Spiel nicht gespeichert: noch kein Zug gemacht.",
                       "Game not stored: no move was made yet."),
    "tui.missing": ("NICHT gespeichert: die Züge {first}–{last} von {of} fehlen im Verlauf "
                    "{db}. {why}",
                    "NOT saved: moves {first}–{last} of {of} are missing from the history "
                    "{db}. {why}"),
    "tui.stale": ("NICHT gespeichert: der Verlauf {db} enthält noch {n} zurückgenommene Züge. "
                  "{why}",
                  "NOT saved: the history {db} still holds {n} undone moves. {why}"),
    "tui.rescued": ("Das ganze Spiel steht in {path} – ansehen mit kniffel show {path}, "
                    "weiterspielen (und in den Verlauf übernehmen) mit kniffel play --load "
                    "{path}",
                    "The whole game is in {path} – see it with kniffel show {path}, play on (and "
                    "into the history) with kniffel play --load {path}"),
    "tui.not_rescued": ("Auch eine Rettungsdatei ließ sich nicht schreiben (versucht: {tried}): "
                        "das Spiel ist verloren.",
                        "No rescue file could be written either (tried: {tried}): the game is "
                        "lost."),
    "tui.confirm_lost": ("Das Spiel konnte nicht gespeichert werden: {why} Auch eine "
                         "Rettungsdatei ließ sich nicht schreiben (versucht: {tried}). Beim "
                         "Beenden geht das Spiel verloren.",
                         "The game could not be saved: {why} No rescue file could be written "
                         "either (tried: {tried}). Quitting loses the game."),
    "tui.confirm_question": ("Trotzdem beenden? [j] ja, beenden  [n] nein, weiterspielen",
                             "Quit anyway? [y] yes, quit  [n] no, play on"),
    "tui.quit_toast": ("Beenden mit [b]q[/b] (oder Strg+Q)", "Quit with [b]q[/b] (or Ctrl+Q)"),
    "tui.quit_toast_title": ("Beenden?", "Quit?"),
    "tui.hint_after_throw": ("Einen Tipp gibt es nach dem Wurf", "A hint comes after the throw"),
    "tui.hint_thinking": ("Tipp: der Experte rechnet …", "Hint: the expert is computing …"),
    "tui.hint_table": ("Tipp (optimal)", "Hint (optimal)"),
    "tui.hint_model": ("Tipp (Experte)", "Hint (expert)"),
    "tui.hint_expected": ("erwartet {value}", "expected {value}"),
    # --- kniffel play's own sentences (issue 19)
    "play.start_beyond": ("--start {start}, aber es spielen nur {players} Spieler.",
                          "--start {start}, but there are only {players} players."),
    "play.resume_strategy": ("Spiel Nr. {id} hat einen Computerspieler „{strategy}“ "
                             "({player}), den es hier nicht gibt; es gibt: {strategies}.",
                             "Game #{id} has a computer player \"{strategy}\" ({player}) "
                             "that does not exist here; there are: {strategies}."),
    "play.resume_conflict": ("{options} passt nicht zu --resume: das fortgesetzte Spiel hat "
                             "seine eigenen Spieler, Regeln und Würfel.",
                             "{options} cannot go with --resume: the resumed game has its own "
                             "players, rules and dice."),
    "play.load_conflict": ("{options} passt nicht zu --load: das geladene Spiel hat seine "
                           "eigenen Spieler, Regeln und Würfel.",
                           "{options} cannot go with --load: the loaded game has its own "
                           "players, rules and dice."),
    "play.not_unfinished": ("Spiel Nr. {id} ist schon beendet; offene Spiele zeigt kniffel "
                            "history.",
                            "Game #{id} is finished already; kniffel history shows the "
                            "unfinished ones."),
    "play.load_over": ("{where}: das Spiel ist schon zu Ende; ansehen mit kniffel show {where}",
                       "{where}: the game is over already; see it with kniffel show {where}"),
    "play.no_terminal": ("Das Spiel braucht ein Terminal: Ein- und Ausgabe dürfen nicht "
                         "umgeleitet sein.",
                         "The game needs a terminal: its input and output must not be "
                         "redirected."),
    # --- kniffel review and kniffel advise for players (issue 19)
    "review.title": ("{title} — Auswertung", "{title} — review"),
    "review.need_game": ("Gib eine Spielstand-Datei oder --history ID an.",
                         "Give a save file or --history ID."),
    "review.player": ("{name}: {count} Entscheidungen, zusammen {points} Punkte verschenkt",
                      "{name}: {count} decisions, {points} points given away in all"),
    "review.player_none": ("{name}: keine Entscheidung bewertet", "{name}: no decision judged"),
    "review.player_perfect": ("{name}: {count} Entscheidungen, keine hat Punkte gekostet",
                              "{name}: {count} decisions, none of them cost a point"),
    "review.costliest": ("Die teuersten Entscheidungen (Verlust in Punkten):",
                         "The costliest decisions (points lost):"),
    "review.costly": ("{moment}: {taken} statt {best}", "{moment}: {taken} instead of {best}"),
    "review.moment": ("Runde {round}, {throw}. Wurf ({dice})",
                      "round {round}, throw {throw} ({dice})"),
    "review.moment_chip": ("Runde {round}, nach dem Chip ({dice})",
                           "round {round}, after the chip ({dice})"),
    "review.costly_title": ("{name}: Entscheidungen, die {least} Punkte oder mehr kosteten",
                            "{name}: decisions that cost {least} points or more"),
    "review.all_title": ("{name}: alle Entscheidungen", "{name}: every decision"),
    "review.col_round": ("Runde", "Round"),
    "review.col_throw": ("Wurf", "Throw"),
    "review.col_dice": ("Würfel", "Dice"),
    "review.col_taken": ("Gewählt", "Taken"),
    "review.col_best": ("Besser", "Best"),
    "review.col_loss": ("Verlust", "Loss"),
    "review.chip_throw": ("Chip", "chip"),
    "review.throw_number": ("{throw}.", "{throw}"),
    "review.hidden": ("{count} Entscheidungen, die weniger als {least} Punkte kosteten, sind "
                      "nicht gezeigt; alle zeigt --all.",
                      "{count} decisions that cost less than {least} points are not shown; "
                      "--all shows every one."),
    "review.uncovered": ("{count} Entscheidungen ohne Bewertung: {why}",
                         "{count} decisions not judged: {why}"),
    "advise.title": ("{title} — {moment} — bisher {score} Punkte",
                     "{title} — {moment} — {score} points so far"),
    "advise.for_player": ("{name}, {moment}", "{name}, {moment}"),
    "advise.at_throw": ("{throw}. Wurf: {dice}", "throw {throw}: {dice}"),
    "advise.at_chip": ("nach dem Chip: {dice}", "after the chip: {dice}"),
    "advise.at_start": ("vor dem 1. Wurf", "before the first throw"),
    "advise.col_choice": ("Wahl", "Choice"),
    "advise.col_expected": ("Erwartet", "Expected"),
    "advise.col_loss": ("Verlust", "Loss"),
    "advise.more": ("… {count} weitere (alle: --top 0)", "… {count} more (all: --top 0)"),
    "advise.estimate": ("Die Werte sind eine Schätzung des Experten: keine Wertetabelle deckt "
                        "diese Stellung ab, er rechnet den Zug genau und den Rest des Spiels "
                        "mit seinem Wertemodell.",
                        "The values are the expert's estimate: no value table covers this "
                        "position, so it computes the turn exactly and the rest of the game "
                        "with its value model."),
    # --- simulate, solve, web, Ctrl-C and SIGTERM (issue 19)
    "interrupt.stopped": ("abgebrochen.", "interrupted."),
    "interrupt.review": ("abgebrochen – die Auswertung wurde nicht fertig; es wurde nichts "
                         "geändert.",
                         "interrupted – the review did not finish; nothing was changed."),
    "simulate.interrupted": ("abgebrochen nach {done} von {games} Spielen.",
                             "interrupted after {done} of {games} games."),
    "simulate.plot_skipped": ("Die Grafik {where} wurde nicht gezeichnet.",
                              "The plot {where} was not drawn."),
    "simulate.title": ("{rules} · {strategy} · {games} Spiele · Startwert {seed}",
                       "{rules} · {strategy} · {games} games · seed {seed}"),
    "simulate.title_partial": ("{rules} · {strategy} · {games} von {requested} Spielen "
                               "(abgebrochen) · Startwert {seed}",
                               "{rules} · {strategy} · {games} of {requested} games "
                               "(interrupted) · seed {seed}"),
    "simulate.mean": ("Mittelwert", "Mean"),
    "simulate.std": ("Standardabweichung", "Standard deviation"),
    "simulate.min": ("Kleinste Summe", "Lowest total"),
    "simulate.max": ("Größte Summe", "Highest total"),
    "simulate.percentile": ("{p}. Perzentil", "{p}th percentile"),
    "simulate.bonus_rate": ("Bonusquote", "Bonus rate"),
    "simulate.chips": ("Chips je Spiel eingesetzt", "Chips handed in per game"),
    "simulate.speed": ("Spiele/s", "Games/s"),
    "simulate.col_box": ("Kästchen", "Box"),
    "simulate.col_mean": ("Ø Punkte", "Mean points"),
    "simulate.col_struck": ("gestrichen", "struck"),
    "simulate.plot_mean": ("Mittelwert {mean}", "mean {mean}"),
    "simulate.plot_x": ("Gesamtpunkte", "Total points"),
    "simulate.plot_y": ("Spiele", "Games"),
    "simulate.read_only": ("{where} kann nicht geschrieben werden: das Dateisystem ist "
                           "schreibgeschützt.",
                           "{where} cannot be written: the file system is read-only."),
    "simulate.no_new_files": ("{where} kann nicht geschrieben werden: im Ordner {folder} lassen "
                              "sich keine Dateien anlegen.",
                              "{where} cannot be written: the folder {folder} does not take "
                              "new files."),
    "simulate.no_matplotlib": ("--plot braucht das Paket matplotlib, und es lässt sich nicht "
                               "laden; ohne --plot geht es.",
                               "--plot needs the package matplotlib, which cannot be loaded; "
                               "without --plot it works."),
    "simulate.plot_failed": ("{where}: die Grafik ließ sich nicht zeichnen.",
                             "{where}: the plot could not be drawn."),
    "solve.notice.recompute": ("{cause} – sie wird neu berechnet.",
                               "{cause} – computing it anew."),
    "solve.notice.start_over": ("{cause} – die Berechnung beginnt von vorn.",
                                "{cause} – starting over."),
    "solve.notice.resuming": ("Die Berechnung geht in {where} weiter, nach {layers} von {total} "
                              "Schichten.",
                              "Resuming {where} after {layers} of {total} layers."),
    "solve.notice.resuming_sets": ("Die Berechnung geht in {where} weiter, nach {layers} von "
                                   "{total} Schichten und {sets} Mengen der nächsten.",
                                   "Resuming {where} after {layers} of {total} layers and {sets} "
                                   "sets of the next."),
    "solve.recompute": ("{problem} – sie wird neu berechnet.", "{problem} – computing it anew."),
    "web.port_in_use": ("{host}:{port} ist schon belegt (ein anderes Programm hört dort); "
                        "einen anderen Port wählen, z. B. --port 0 für einen freien.",
                        "{host}:{port} is already in use (another program listens there); "
                        "choose another port, e.g. --port 0 for any free one."),
    "web.port_denied": ("{host}:{port} darf dieses Programm nicht öffnen (Ports unter 1024 "
                        "brauchen Administratorrechte); einen anderen Port wählen, z. B. "
                        "--port 0 für einen freien.",
                        "this program may not open {host}:{port} (ports below 1024 need "
                        "administrator rights); choose another port, e.g. --port 0 for any "
                        "free one."),
    "web.address_unknown": ("{host} ist keine Adresse dieses Rechners.",
                            "{host} is not an address of this machine."),
    "web.export_not_empty": ("{where} ist kein leerer Ordner und hält keine frühere "
                             "kniffel-Seite; nichts wurde geschrieben. Einen leeren oder neuen "
                             "Ordner wählen, oder --force, um die Dateien der Seite dort "
                             "hineinzuschreiben.",
                             "{where} is not empty and holds no earlier kniffel site; nothing "
                             "was written. Choose an empty or new folder, or --force to write "
                             "the site's files into it."),
    "web.serving": ("kniffel web: {url}  (Strg+C beendet)", "kniffel web: {url}  (Ctrl+C stops)"),
    "web.lan": ("Im lokalen Netz: {url}", "On the local network: {url}"),
    # --- browser import refusals (issue 20): the file named, no field name of the format
    "web.import_refused": ("„{where}“ wurde nicht importiert, es wurde nichts geändert: {cause}",
                           "\"{where}\" was not imported, nothing was changed: {cause}"),
    "web.import_not_kniffel": ("„{where}“ ist weder ein Kniffel-Spielstand noch ein "
                               "Kniffel-Verlauf; es wurde nichts geändert.",
                               "\"{where}\" is neither a kniffel game nor a kniffel history; "
                               "nothing was changed."),
    # the parts of a saved game or a history file ({field} of save.missing_field and
    # import.field_not_text) as a player reads them
    "part.rules": ("die Regeln", "its rules"),
    "part.name": ("ein Name", "a name"),
    "part.mode": ("die Spielart", "its mode"),
    "part.players": ("die Spieler", "its players"),
    "part.actions": ("die Züge", "its moves"),
    "part.seed": ("der Startwert der Würfel", "the dice's seed"),
    "part.start_player": ("der Startspieler", "the start player"),
    "part.uid": ("die Kennung des Spiels", "the game's id"),
    "part.started": ("die Anfangszeit", "its start time"),
    "part.started_at": ("die Anfangszeit", "its start time"),
    "part.finished_at": ("die Endzeit", "its end time"),
    "part.finished": ("die Endzeit", "its end time"),
    "part.unknown": ("eine Angabe", "a detail"),
    # --- seed 004 preset (issue 19)
    "solver.kernel_stale": ("Der übersetzte Rechenkern des Lösers in {path} ist älter als sein "
                            "Quelltext und kennt die Kniffel-Regel von {rules} nicht: kniffel "
                            "neu installieren (scripts/setup.sh), damit er neu gebaut wird.",
                            "The solver's compiled kernel in {path} is older than its source "
                            "and does not know the Kniffel rule of {rules}: reinstall kniffel "
                            "(scripts/setup.sh) so that it is built anew."),
}

#: The computer players' names as a player reads them.
STRATEGY_NAMES: dict[str, tuple[str, str]] = {
    "greedy": ("gierig", "greedy"),
    "random": ("zufällig", "random"),
    "optimal": ("optimal", "optimal"),
    "expert": ("Experte", "expert"),
}

_DIE_LABELS = {"d6": ("W6", "d6"), "d10": ("W10", "d10")}


def _pick(pair: tuple[str, str], lang: Lang) -> str:
    return pair[0] if lang == "de" else pair[1]


def die_label(die: str, lang: Lang) -> str:
    """The label of a die: ``die_label("d10", "de") == "W10"``."""
    return _pick(_DIE_LABELS[die], lang) if die in _DIE_LABELS else die


def strategy_name(name: str, lang: Lang) -> str:
    """A computer player's name in ``lang`` (``greedy`` -> "gierig"); unknown names as they
    are."""
    return _pick(STRATEGY_NAMES[name], lang) if name in STRATEGY_NAMES else name


def dice_text(d6: Sequence[int], d10: int | None, lang: Lang) -> str:
    """Dice as a player reads them: ``"5 5 6, W10=8"`` (English ``"5 5 6, d10=8"``)."""
    parts = [" ".join(map(str, d6))] if d6 else []
    if d10 is not None:
        parts.append(f"{die_label('d10', lang)}={d10}")
    return ", ".join(parts) if parts else ("nichts" if lang == "de" else "nothing")


def rules_title(name: str, lang: Lang) -> str:
    """The display name of the rule set ``name`` ("Kniffel Extreme"), or ``name`` when it is
    not one."""
    try:
        return preset(name).title(lang)
    except ValueError:
        return name


def _box_name(box: object, rules: object, lang: Lang) -> str:
    try:
        parsed = Box(box)
    except ValueError:
        return str(box)
    if isinstance(rules, str):
        try:
            return preset(rules).box_name(parsed, lang)
        except ValueError:
            pass
    return BOX_TEXTS[parsed].name(lang)


def _join(items: Sequence[str]) -> str:
    return ", ".join(items) if items else "–"


def _shown(key: str, value: object, params: Mapping[str, object], lang: Lang) -> object:
    """A parameter as the player reads it (see the module's docstring)."""
    if value is None:
        return "–"
    rules = params.get("rules")
    if key == "box":
        return _box_name(value, rules, lang)
    if key in ("boxes", "strikes") and isinstance(value, list):
        return _join([_box_name(b, rules, lang) for b in value])
    if key == "rules" and isinstance(value, str):
        return rules_title(value, lang)
    if key == "strategy" and isinstance(value, str):
        return strategy_name(value, lang)
    if key == "strategies" and isinstance(value, list):
        return _join([f"{v} ({strategy_name(v, lang)})" if strategy_name(v, lang) != v else v
                      for v in map(str, value)])
    if key == "size" and isinstance(value, int) and not isinstance(value, bool):
        return size(value, lang)  # a file size in bytes: "2,4 GB"
    if key == "die" and isinstance(value, str):
        return die_label(value, lang)
    if key in ("roll", "keep") and isinstance(value, dict):
        d6 = value.get("d6")
        d10 = value.get("d10")
        return dice_text(list(d6) if isinstance(d6, list) else [],
                         d10 if isinstance(d10, int) else None, lang)
    if key == "field":  # a part of the save format: in words, never its name in the format
        return _pick(CATALOG.get(f"part.{value}") or CATALOG["part.unknown"], lang)
    if key == "cause" and isinstance(value, dict):
        inner = value.get("params")
        return render_code(str(value.get("code")), inner if isinstance(inner, dict) else {}, lang)
    if isinstance(value, (list, tuple)):
        return _join([str(v) for v in value])
    return value


def number(value: float, lang: Lang, digits: int = 1) -> str:
    """``value`` as a reader of ``lang`` writes it, with ``digits`` decimals and the digits
    grouped by thousands: German ``359.424`` and ``712,4``, English ``359,424`` and ``712.4``.
    The one number format of every front end (the command line, the terminal game and the
    browser's views): a German reader never sees a decimal point.

    >>> number(6.321, "de", 2), number(6321, "de", 0), number(6321, "en", 0), number(-0.5, "en")
    ('6,32', '6.321', '6,321', '-0.5')
    """
    shown = f"{value:,.{digits}f}"
    if shown.startswith("-") and not any(c in "123456789" for c in shown):
        shown = shown[1:]  # "-0.0" is 0.0
    if lang == "de":
        shown = shown.replace(",", "\0").replace(".", ",").replace("\0", ".")
    return shown


def decimal(value: float, lang: Lang, most: int = 3) -> str:
    """``value`` with as few decimals as it needs, at most ``most`` (rounded there), grouped and
    in the separators of ``lang`` like :func:`number`: the form for a value a player typed or a
    bound of an option.

    >>> decimal(0.5, "de"), decimal(2.0, "de"), decimal(65535, "de"), decimal(1 / 3, "en")
    ('0,5', '2', '65.535', '0.333')
    """
    shown = number(value, lang, most)
    point = "," if lang == "de" else "."
    if point in shown:
        shown = shown.rstrip("0").rstrip(point)
    return shown


def count(value: int, lang: Lang) -> str:
    """A whole number with its thousands grouped: ``count(359424, "de") == "359.424"``."""
    return number(value, lang, 0)


def percent(share: float, lang: Lang, digits: int = 1) -> str:
    """A share (0–1) in percent: ``percent(0.423, "de") == "42,3 %"``."""
    return f"{number(100 * share, lang, digits)} %"


def size(nbytes: int, lang: Lang) -> str:
    """A file size in decimal units: ``size(2_400_000_000, "de") == "2,4 GB"``, ``"512 B"``."""
    for unit, scale in (("GB", 10**9), ("MB", 10**6), ("kB", 10**3)):
        if nbytes >= scale:
            return f"{number(nbytes / scale, lang, 1)} {unit}"
    return f"{nbytes} B"


def fields(template: str) -> set[str]:
    """The parameter names a catalog text uses."""
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def render_code(code: str, params: Mapping[str, object], lang: Lang) -> str:
    """The catalog's sentence for ``code`` with ``params``, in ``lang``. A code without an entry,
    or params that do not fill its sentence, give the generic sentence "That is not possible."
    in ``lang``."""
    pair = CATALOG.get(code)
    template = _pick(pair, lang) if pair else None
    if template is not None:
        used = fields(template)
        if used <= params.keys():
            shown: dict[str, Any] = {k: _shown(k, params[k], params, lang) for k in used}
            text = template.format(**shown)
        else:
            template = None
    if template is None:
        text = _pick(CATALOG["error"], lang)
    where = params.get("where")
    if isinstance(where, str) and (template is None or "where" not in fields(template)):
        text = f"{where}: {text}"
    return text


def render(error: BaseException, lang: Lang = "de") -> str:
    """``error`` in plain German or English for a player: a kniffel error from the catalog, by
    its code and params; anything else as a generic sentence (never engine-internal text)."""
    code = getattr(error, "code", None)
    params = getattr(error, "params", None)
    if isinstance(code, str) and isinstance(params, dict):
        return render_code(code, params, lang)
    return _pick(CATALOG["unexpected"], lang)


def text(code: str, lang: Lang, **params: object) -> str:
    """A catalog sentence that is not an error (the command line's own words)."""
    return render_code(code, params, lang)
