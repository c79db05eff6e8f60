"""The replay viewer: one self-contained HTML file to step through a stored game.

The file holds the board once (table, grid, terrain: `projections.render`) and, per
log step, only what changed: the SVG of each unit that moved or changed (or `null`
when it left the table), the step's overlays by layer, its log line (round, phase,
player, command and arguments, verdict and clauses, dice, CP before and after) and
its timeline markers. The page's script keeps every step's units by reference, so
seeking to any step swaps two SVG groups and never replays the game.

With `as_player`, everything is built from what that player may know: the events
of `replay.export.seen_by` (their own numbering, no hashes), states with the units
hidden from them left out, and overlays drawn on those states. A rule set whose
secrets open at the end of the game (`Ruleset.reveals_at_game_end`, Infinity's
Private Information) shows every unit from the end on, as `replay --as` does
(`projections.state_view.private_opened`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from importlib import resources
from itertools import groupby
from typing import Any

from shapely.geometry import LineString

from domain.game import Game
from domain.ruleset import find_ruleset
from domain.state import GameState
from events.core import (
    DiceRolled,
    GameEnded,
    PhaseStarted,
    ReactionDeclared,
    ReactionWindowOpened,
    StepTaken,
)
from events.envelope import GameEvent
from events.undo import RequestRefused, RulingRecorded, StepsRedone, StepsUndone
from projections.overlays import overlays_for
from projections.render import (
    LAYERS,
    Frame,
    LabelPlacer,
    LegendItem,
    Overlay,
    caption_of,
    fragment,
    legend_items,
    overlay_drawings,
    player_colours,
    table_elements,
    terrain_labels,
    unit_drawings,
)
from projections.wording import refusal_label, say_command
from replay.audit import UNDO_TALK as AUDIT_TALK
from replay.audit import AuditEntry, audit_entries, fold_entries
from replay.export import hidden_from, seen_by

#: Commands that move play on or talk about it: nothing on the board to explain.
FLOW_COMMANDS = frozenset({"next_phase", "end_turn", "end_game", "ruling", "pass",
                           *AUDIT_TALK})
#: Facts that put a marker on the timeline, by marker kind.
MARKERS: dict[type, str] = {
    PhaseStarted: "phase",
    StepsUndone: "undo",
    StepsRedone: "undo",
    RequestRefused: "refusal",
    RulingRecorded: "ruling",
    GameEnded: "end",
}


@dataclass
class ViewerGame:
    """What the page shows: the static board, the frames, and what the legend names."""

    title: str
    viewer: str
    board_svg: str
    width: float
    height: float
    frames: list[dict[str, Any]] = field(default_factory=list)
    legend: list[dict[str, Any]] = field(default_factory=list)
    layers: dict[str, str] = field(default_factory=dict)
    groups: dict[str, list[str]] = field(default_factory=dict)
    note: str = ""
    #: How many events the frames show (a player's own, or the whole log).
    events_shown: int = 0

    def as_json(self) -> dict[str, Any]:
        return {
            "title": self.title, "viewer": self.viewer, "board": self.board_svg,
            "width": self.width, "height": self.height, "frames": self.frames,
            "legend": self.legend, "layers": self.layers, "groups": self.groups,
            "note": self.note,
        }


def viewer_html(events: Sequence[GameEvent], as_player: str | None = None,
                title: str = "", attempts: Sequence[dict[str, Any]] = (),
                viewer_name: str = "") -> str:
    """The whole self-contained HTML page of a game's replay (with `attempts`, the
    refused commands of the server's attempts log: `with_refusals`)."""
    return viewer_page(viewer_game(events, as_player, title, attempts), as_player,
                       viewer_name=viewer_name)


def viewer_page(game: ViewerGame, as_player: str | None = None,
                attempts: Sequence[dict[str, Any]] = (), viewer_name: str = "") -> str:
    """The HTML page of a game's viewer data (`viewer_html`); `attempts` given here,
    not to `viewer_game`, become frames without their checks drawn."""
    if viewer_name and as_player is not None and game.viewer == as_player:
        game.viewer = viewer_name
    game.frames = with_refusals(game.frames, attempts)
    template = resources.files("projections").joinpath("viewer.html").read_text("utf-8")
    data = json.dumps(game.as_json(), separators=(",", ":"), ensure_ascii=True)
    # Inside a <script> element nothing may close it: '<' never appears as itself.
    data = data.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return template.replace("/*GAME-DATA*/", data, 1)


def viewer_game(events: Sequence[GameEvent], as_player: str | None = None,
                title: str = "", attempts: Sequence[dict[str, Any]] = ()) -> ViewerGame:
    """The viewer's data for a game, for everyone or as one player may know it, with a
    frame for each refused attempt (`with_refusals`) drawing the checks its command
    asked for on the board as it stood (as this viewer may know it)."""
    events = list(events)
    first = Game.from_first_event(events[0])
    # Only a player's view of a rule set whose secrets open at the end needs to know
    # how the game stands at its last event (a replay of its own). The frames are theirs
    # all the same: from the end on they show every unit, as `replay --as` does
    # (CORE-PRIVATE-AT-END, `projections.state_view.private_opened`).
    note = ""
    if as_player is not None and first.ruleset.reveals_at_game_end \
            and final_state(events).finished:
        note = ("The game is over: its Private Information is open, so from its end on "
                "this view shows every unit.")
    frame = Frame(first.state.board.width, first.state.board.height)
    base = LabelPlacer(frame)
    colours = player_colours(first.state.players)
    static = table_elements(frame, first.state) + terrain_labels(frame, first.state, base)
    width, height = frame.board_px
    board = (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:.0f} {height:.0f}" '
             f'id="board" preserveAspectRatio="xMidYMid meet">'
             f'{fragment(*static)}<g id="overlays"></g><g id="units"></g></svg>')
    out = ViewerGame(title or f"{first.state.ruleset}: {' v '.join(first.state.players)}",
                     as_player or "everyone (the judge's full view)", board,
                     round(width), round(height), note=note)
    out.legend = [legend_json(item) for item in legend_items(first.state, colours)]
    builder = FrameBuilder(frame, base, colours, as_player)
    builder.keep_after = {after_step(a) for a in attempts}
    out.frames = with_refusals(list(builder.frames(events)), attempts, builder.refusal_drawing)
    out.events_shown = builder.events_shown
    out.layers = {key: LAYERS[key] for key in LAYERS if key in builder.layers_seen}
    out.groups = {layer: sorted(owners) for layer, owners in builder.groups_seen.items()}
    return out


#: Draws a refused command's checks: (the step it came after, the command) → the
#: frame's fields that differ from the step before's (`FrameBuilder.refusal_drawing`).
RefusalDrawing = Callable[[int, dict[str, Any]], dict[str, Any]]


def with_refusals(frames: list[dict[str, Any]], attempts: Sequence[dict[str, Any]],
                  drawing: RefusalDrawing | None = None) -> list[dict[str, Any]]:
    """The frames with a frame for each refused attempt (`replay.attempts.Attempt.as_json`:
    `{seat, at, after_step, label, command, rule, message}`) after the last frame of the
    step it came after. A refused command is no fact: its frame changes no unit; it
    draws the checks the command asked for (with `drawing`), shows the command and its
    verdict, marked "refusal" on the timeline, and `label` says where it happened
    ("refused after step 5"). An attempt in the server's older form (`step`: the
    step it would have been) is read too."""
    out = list(frames)
    for attempt in sorted(attempts, key=after_step, reverse=True):
        place = max((i for i, f in enumerate(out) if f["step"] <= after_step(attempt)),
                    default=len(out) - 1)
        if place < 0:
            continue
        before = out[place]
        command = {k: v for k, v in attempt["command"].items() if k not in ("by", "do")}
        by, do = attempt["seat"], str(attempt["command"].get("do", "?"))
        at = place + 1
        while at < len(out) and out[at].get("attempt"):
            at += 1  # several refusals before one step keep the order they were made in
        out.insert(at, {
            **before, "attempt": True, "events": [], "player": by, "do": do, "args": command,
            "label": attempt.get("label") or refusal_label(after_step(attempt)),
            "text": f"{by} {say_command({'do': do, **command})}",
            "outcome": f"refused: {attempt['rule']}: {attempt['message']}",
            "citations": [], "dice": [], "rulings": [], "talk": False,
            "branch": [], "undone": False,
            "cp_before": before["cp_after"], "markers": ["refusal"], "units": {},
            "layers": {}, "notes": [], "legend": [], "unplaced": [],
            **(drawing(after_step(attempt), {"by": by, "do": do, **command})
               if drawing is not None else {}),
        })
    return out


def after_step(attempt: dict[str, Any]) -> int:
    """The log step an attempt came after (0: the set-up)."""
    return int(attempt["after_step"]) if "after_step" in attempt else int(attempt["step"]) - 1


def final_state(events: Sequence[GameEvent]) -> GameState:
    game = Game.from_first_event(events[0])
    for event in events[1:]:
        game.apply_event(event)
    return game.state


def legend_json(item: LegendItem) -> dict[str, Any]:
    return {"colour": item.colour, "text": item.text, "dashed": item.dashed,
            "kind": item.kind, "layer": item.layer}


class FrameBuilder:
    """Walks a game's events step by step and makes each step's frame."""

    def __init__(self, frame: Frame, base: LabelPlacer, colours: dict[str, str],
                 as_player: str | None) -> None:
        self.frame, self.base, self.colours, self.as_player = frame, base, colours, as_player
        self.layers_seen: set[str] = set()
        self.groups_seen: dict[str, set[str]] = {}
        self.drawn: dict[str, str] = {}
        self.events_shown = 0
        #: The steps a refused attempt came after, and the state after each (as this
        #: viewer may know it), for drawing the attempt's checks.
        self.keep_after: set[int] = set()
        self.kept: dict[int, GameState] = {}
        #: The steps `audit --fold` leaves out (an undone branch and its undo talk).
        self.folded: set[int] = set()

    def frames(self, events: Sequence[GameEvent]) -> Iterator[dict[str, Any]]:
        visible = list(events) if self.as_player is None else list(
            seen_by(events, self.as_player))
        self.events_shown = len(visible)
        numbers = {e.originator_version: n for n, e in enumerate(visible, start=1)}
        entries = {e.step: e for e in audit_entries(visible)}
        # "Skip undone branches" hides what `audit --fold` leaves out, no more.
        kept = {e.step for e in fold_entries(list(entries.values()))}
        self.folded = {step for step in entries if step not in kept}
        seen = {e.originator_version: e for e in visible}
        game: Game | None = None
        for step, group in groupby(events, key=lambda e: e.step):
            batch = list(group)
            # A copy: applying the step changes the game's state in place.
            before = None if game is None else self.seen_state(game.state.model_copy(deep=True))
            cp_before = cp_of(before)
            for event in batch:
                if game is None:
                    game = Game.from_first_event(event)
                else:
                    game.apply_event(event)
            assert game is not None
            if step in self.keep_after:
                self.kept[step] = self.seen_state(game.state.model_copy(deep=True))
            entry = entries.get(step)
            if entry is None:  # nothing of this step may be known to this viewer
                continue
            after = self.seen_state(game.state)
            shown = [seen[e.originator_version] for e in batch if e.originator_version in seen]
            yield self.frame_of(entry, before, after, shown, numbers, cp_before)

    def refusal_drawing(self, after_step: int, command: dict[str, Any]) -> dict[str, Any]:
        """A refused command's frame: where it was given, and the checks it asked for
        drawn on the board as it stood (as `board --command` previews them)."""
        state = self.kept.get(after_step)
        if state is None:
            return {}
        where = {"round": state.round, "phase": state.phase, "active": state.active_player}
        if command.get("do") in FLOW_COMMANDS:
            return where
        try:
            overlays = list(overlays_for(state, command))
        except (TypeError, ValueError, KeyError, AttributeError, IndexError):
            return where  # a command too malformed to draw (it was refused with INPUT)
        placer = LabelPlacer(self.frame)
        placer.taken = list(self.base.taken)
        drawn = overlay_drawings(self.frame, overlays, placer)
        self.note_layers(overlays)
        return {**where, "layers": drawn.layers, "notes": drawn.notes,
                "legend": [legend_json(item) for item in drawn.legend]}

    def note_layers(self, overlays: Sequence[Overlay]) -> None:
        """Remember the layers (and observers) drawn, for the page's toggles."""
        for item in overlays:
            if not item.note:
                self.layers_seen.add(item.layer)
                if item.group:
                    self.groups_seen.setdefault(item.layer, set()).add(item.group)

    def seen_state(self, state: GameState) -> GameState:
        """The state with the units this viewer may not know about left out."""
        if self.as_player is None:
            return state
        hidden = hidden_from(state, self.as_player)
        if not hidden:
            return state
        units = {k: u for k, u in state.units.items() if k not in hidden}
        return state.model_copy(update={"units": units})

    def frame_of(self, entry: AuditEntry, before: GameState | None, after: GameState,
                 shown: Sequence[GameEvent], numbers: dict[int, int],
                 cp_before: dict[str, int]) -> dict[str, Any]:
        command = step_command(shown)
        overlays: list[Overlay] = []
        if before is not None and command and command.get("do") not in FLOW_COMMANDS:
            overlays = [*overlays_for(before, command), *moves(before, after)]
        placer = LabelPlacer(self.frame)
        placer.taken = list(self.base.taken)
        # `after` is already the state as this viewer may know it (`seen_state`).
        units = unit_drawings(self.frame, after, placer, self.colours)
        drawn = overlay_drawings(self.frame, overlays, placer)
        self.note_layers(overlays)
        delta: dict[str, str | None] = {}
        for unit_id, svg in units.fragments.items():
            if self.drawn.get(unit_id) != svg:
                delta[unit_id] = svg
        for unit_id in set(self.drawn) - set(units.fragments):
            delta[unit_id] = None
        self.drawn = dict(units.fragments)
        numbered = [numbers[e.originator_version] for e in shown]
        return {
            "step": entry.step,
            "events": [min(numbered), max(numbered)] if numbered else [],
            # The log names the round and phase the command was given in.
            "round": (before or after).round,
            "phase": (before or after).phase,
            "active": (before or after).active_player,
            "caption": caption_of(after),
            "player": entry.player,
            "do": entry.command,
            "args": entry.arguments,
            "text": "set-up" if entry.step == 0 else
            f"{entry.player} {say_command({'do': entry.command, **entry.arguments})}",
            "outcome": outcome_of(entry, shown),
            "citations": entry.citations,
            "dice": dice_of(shown, entry.player),
            "rulings": entry.rulings,
            "branch": entry.branch,
            "undone": entry.undone,
            # Undo talk folded away with its branch (a result's answer is not).
            "talk": entry.step in self.folded and not entry.undone,
            "cp_before": cp_before,
            "cp_after": cp_of(after),
            "markers": markers_of(shown, before, after),
            "units": delta,
            "layers": drawn.layers,
            "notes": drawn.notes,
            "legend": [legend_json(item) for item in drawn.legend],
            "unplaced": units.unplaced,
        }


def step_command(shown: Sequence[GameEvent]) -> dict[str, Any] | None:
    """The command of a step, when its `StepTaken` is visible."""
    for event in shown:
        if isinstance(event.fact, StepTaken):
            return {"by": event.fact.by, **event.fact.command}
    return None


def cp_of(state: GameState | None) -> dict[str, int]:
    """Each player's command points (public in every rule set)."""
    if state is None:
        return {}
    return {p: s.cp for p, s in sorted(state.player_state.items())}


def outcome_of(entry: AuditEntry, shown: Sequence[GameEvent]) -> str:
    """The step's verdict in words."""
    if any(isinstance(e.fact, RequestRefused) for e in shown):
        return "refused by consent"
    if entry.undone:
        return "accepted, later undone"
    return entry.outcome


def dice_of(shown: Sequence[GameEvent], player: str) -> list[dict[str, Any]]:
    """The dice rolled in the step (as the viewer may see them), with who rolled."""
    return [{"purpose": e.fact.purpose, "sides": e.fact.sides, "values": list(e.fact.values),
             "source": e.fact.source, "player": player}
            for e in shown if isinstance(e.fact, DiceRolled)]


def markers_of(shown: Sequence[GameEvent], before: GameState | None,
               after: GameState) -> list[str]:
    """The timeline markers of a step: phase starts, stratagems, AROs, casualties,
    undos, refusals and rulings."""
    kinds: list[str] = []
    wiring = find_ruleset(after.ruleset).wiring
    own = wiring.markers if wiring is not None else {}
    for event in shown:
        fact = event.fact
        kind = MARKERS.get(type(fact)) or own.get(type(fact))
        if isinstance(fact, ReactionWindowOpened) and fact.kind == "aro":
            kind = "aro"
        if isinstance(fact, ReactionDeclared) and fact.answer not in ("pass", "no"):
            kind = kind or "reaction"
        if kind and kind not in kinds:
            kinds.append(kind)
    if before is not None and "casualty" not in kinds and any(
        unit.status == "removed" and before.units.get(unit_id) is not None
        and before.units[unit_id].status != "removed"
        for unit_id, unit in after.units.items()
    ):
        kinds.append("casualty")
    return kinds


def moves(before: GameState, after: GameState) -> Iterable[Overlay]:
    """A line from where each unit stood to where it stands now (the step's movement)."""
    for unit_id, unit in after.units.items():
        old = before.units.get(unit_id)
        if old is None or unit.x is None or unit.y is None or old.x is None or old.y is None:
            continue
        if unit.status != "on_table" or old.status != "on_table":
            continue
        if abs(unit.x - old.x) > 1e-6 or abs(unit.y - old.y) > 1e-6:
            yield Overlay(LineString([(old.x, old.y), (unit.x, unit.y)]), stroke="#000",
                          dashed=True, layer="paths", label=f"{unit_id} moved")
