"""Figures over the analytic tables (`warledger stats`), each traceable to its events.

Every figure is one SQL query over a *base*: one row per fact behind it, with
the fact's game and event number. The figure groups the base by its keys;
`explain` lists the base rows of one group, so every number can be traced
back to the events it counts. Derived columns (win rates with 95% Wilson
intervals, chi-square p-values) are computed from the grouped counts.

Counted facts of undone steps are left out (their rows are kept, flagged);
dice of undone steps are left in (they were rolled), each source apart.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from domain.words import counted

#: The z value of a two-sided 95% interval.
Z95 = 1.959963984540054
#: Decimals of every published rate, interval and p-value.
DECIMALS = 4


class StatsError(Exception):
    """A stats request that cannot be answered (one clear line)."""


@dataclass(frozen=True)
class Filters:
    ruleset: str | None = None
    event: str | None = None
    player: str | None = None
    since: str | None = None

    def games_in(self, column: str = "t.game_id") -> tuple[str, list[Any]]:
        """The facts of the chosen games only (nothing when no games filter is set:
        a join per fact would be most of a figure's time)."""
        conditions, params = self.games_sql()
        if not conditions:
            return "", []
        return f" and {column} in (select g.game_id from games g where 1 = 1{conditions})", params

    def games_sql(self, alias: str = "g") -> tuple[str, list[Any]]:
        """Conditions on the `games` row of each fact."""
        sql, params = [], []
        if self.ruleset is not None:
            sql.append(f"{alias}.ruleset = ?")
            params.append(self.ruleset)
        if self.event is not None:
            sql.append(f"{alias}.meta_event = ?")
            params.append(self.event)
        if self.since is not None:
            sql.append(f"{alias}.started >= ?")
            params.append(self.since)
        return "".join(f" and {s}" for s in sql), params


Row = dict[str, Any]


@dataclass(frozen=True)
class Spec:
    """A figure: its base rows, the keys it groups them by, and what it adds up."""

    name: str
    title: str
    #: SQL of the base, with `{games}` for the games conditions and `{player}` for the
    #: player condition (on the base's own player column).
    base: str
    player_column: str | None
    keys: tuple[str, ...]
    sums: tuple[tuple[str, str], ...]
    post: Callable[[list[Row]], list[Row]] | None = None
    #: Keys `explain` matches a published row by (all of `keys` by default).
    explain_keys: tuple[str, ...] | None = None
    note: str = ""
    order: str = ""
    #: The fact types the figure counts (each base row is one of them).
    facts: frozenset[str] = frozenset()
    #: The columns `post` publishes, when they are not the keys and sums.
    shown: tuple[str, ...] = ()

    def columns(self, rows: list[Row]) -> list[str]:
        """The published columns (the same whether or not there are rows)."""
        if rows:
            return list(rows[0])
        return list(self.shown) or [*self.keys, *(n for n, _ in self.sums)]


@dataclass
class Figure:
    spec: Spec
    rows: list[Row] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        return {"title": self.spec.title, "columns": self.spec.columns(self.rows),
                "rows": self.rows, "note": self.spec.note}


def count_if(condition: str) -> str:
    return f"sum(case when {condition} then 1 else 0 end)"


def wilson(wins: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default)."""
    if n == 0:
        return 0.0, 0.0
    p = wins / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def chi_square_p(statistic: float, dof: int) -> float:
    """P(X² ≥ statistic) for `dof` degrees of freedom: the regularized upper
    incomplete gamma Q(dof/2, statistic/2) (series or continued fraction)."""
    if dof <= 0:
        return 1.0
    a, x = dof / 2.0, statistic / 2.0
    if x <= 0:
        return 1.0
    log_front = -x + a * math.log(x) - math.lgamma(a)
    if x < a + 1:
        term = total = 1.0 / a
        n = a
        for _ in range(1000):
            n += 1
            term *= x / n
            total += term
            if abs(term) < abs(total) * 1e-15:
                break
        return max(0.0, 1.0 - total * math.exp(log_front))
    b = x + 1 - a
    c, d = 1e300, 1 / b
    h = d
    for i in range(1, 1000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = 1e-300 if abs(d) < 1e-300 else d
        c = b + an / c
        c = 1e-300 if abs(c) < 1e-300 else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return min(1.0, math.exp(log_front) * h)


def rounded(value: float) -> float:
    return round(value, DECIMALS)


def add_win_rates(rows: list[Row]) -> list[Row]:
    """Win rate (wins / player-games) and its 95% Wilson interval."""
    for row in rows:
        n, wins = int(row["player_games"]), int(row["wins"])
        low, high = wilson(wins, n)
        row["win_rate"] = rounded(wins / n) if n else 0.0
        row["ci_low"], row["ci_high"] = rounded(low), rounded(high)
        row["avg_points"] = None if row["avg_points"] is None else rounded(float(row["avg_points"]))
    return rows


def add_shares(rows: list[Row]) -> list[Row]:
    """Each row's share of its skill's declarations."""
    totals: dict[Any, int] = {}
    for row in rows:
        totals[row["skill"]] = totals.get(row["skill"], 0) + int(row["count"])
    for row in rows:
        row["share"] = rounded(int(row["count"]) / totals[row["skill"]])
    return rows


#: The usual rule for a chi-square test: at least this many counts expected in
#: every cell (face); below it the p-value is not to be trusted.
MIN_EXPECTED = 5
DICE_COLUMNS = ("player", "source", "sides", "dice", "faces", "mean", "chi2", "p_value",
                "expected_per_face", "small_sample")


def dice_fit(rows: list[Row]) -> list[Row]:
    """One row per (player, source, sides): the count of each face, and the chi-square
    goodness-of-fit p-value against a fair die (all faces equally likely), flagged
    `small_sample` when fewer than `MIN_EXPECTED` rolls are expected per face."""
    groups: dict[tuple[Any, ...], dict[int, int]] = {}
    for row in rows:
        key = (row["player"], row["source"], int(row["sides"]))
        groups.setdefault(key, {})[int(row["value"])] = int(row["count"])
    out = []
    for (player, source, sides), faces in groups.items():
        n = sum(faces.values())
        expected = n / sides
        statistic = sum((faces.get(face, 0) - expected) ** 2 / expected
                        for face in range(1, sides + 1))
        out.append({
            "player": player, "source": source, "sides": sides, "dice": n,
            "faces": {str(face): faces.get(face, 0) for face in range(1, sides + 1)},
            "mean": rounded(sum(face * c for face, c in faces.items()) / n),
            "chi2": rounded(statistic), "p_value": rounded(chi_square_p(statistic, sides - 1)),
            "expected_per_face": rounded(expected), "small_sample": expected < MIN_EXPECTED,
        })
    return out


GAMES_JOIN = ""
RESULTS_BASE = """
select p.game_id, g.result_event as event_no, g.ruleset, '{dim}' as dimension, {group} as grp,
       p.outcome, p.points, {mirror} as mirror
from players p join games g on g.game_id = p.game_id
where g.result = 'confirmed' {{g}} {{player}}"""
#: A player of a game whose opponent plays the same faction (a mirror match).
MIRROR = ("case when p.faction is not null and exists (select 1 from players q where "
          "q.game_id = p.game_id and q.player <> p.player and q.faction = p.faction) "
          "then 1 else 0 end")

MK_BASE = " union all ".join(f"""
select t.game_id, t.event_no, {player} as player, '{measure}' as measure, {kind} as kind,
       {hit} as hit, {damage} as damage
from {table} t where t.undone = 0 {{games}}""" for table, player, measure, kind, hit, damage in (
    ("mk_actions", "t.player", "action", "t.action", "null", "null"),
    ("mk_attacks", "t.attacker_owner", "damage dealt", "t.kind", "t.hit", "t.damage"),
    ("mk_attacks", "t.target_owner", "damage taken", "t.kind", "t.hit", "t.damage"),
    ("mk_dismounts", "t.owner", "dismount", "t.cause", "null", "null"),
))

SPECS: dict[str, Spec] = {s.name: s for s in (
    Spec("results", "Win rate by rule set, faction and first player (95% Wilson interval)",
         " union all ".join(RESULTS_BASE.format(dim=dim, group=group, mirror=mirror)
                            for dim, group, mirror in (
             ("faction", "coalesce(p.faction, '(no faction)')", MIRROR),
             ("first", "case when p.went_first = 1 then 'went first' "
                       "when p.went_first = 0 then 'went second' "
                       "else 'first player unknown' end", "0"),
         )),
         "p.player", ("ruleset", "dimension", "grp"),
         (("games", "count(distinct game_id)"), ("player_games", "count(*)"),
          ("mirror_games", "count(distinct case when mirror = 1 then game_id end)"),
          ("wins", count_if("outcome = 'win'")),
          ("draws", count_if("outcome = 'draw'")), ("losses", count_if("outcome = 'loss'")),
          ("avg_points", "avg(points)")),
         post=add_win_rates, facts=frozenset({"ResultConfirmed"}),
         shown=("ruleset", "dimension", "grp", "games", "player_games", "mirror_games", "wins",
                "draws", "losses", "avg_points", "win_rate", "ci_low", "ci_high"),
         note="confirmed results only; win_rate = wins / player_games (a player-game per "
              "player of each game: a mirror match counts twice for its faction, once as "
              "a win and once as a loss); games: distinct games; a draw is not a win"),
    Spec("stratagems", "40k stratagem uses and CP paid, per stratagem, phase and round",
         " union all ".join(f"""
select t.game_id, t.event_no, '{dim}' as dimension, {col} as grp, t.cost
from w40k_stratagems t {GAMES_JOIN} where t.undone = 0 {{games}} {{player}}"""
                            for dim, col in (("stratagem", "t.name"), ("phase", "t.phase"),
                                             ("round", "cast(t.round as text)"))),
         "t.player", ("dimension", "grp"),
         (("uses", "count(*)"), ("cp", "sum(cost)"), ("games", "count(distinct game_id)")),
         facts=frozenset({"StratagemUsed"})),
    Spec("cp", "40k CP gained, spent and lost to the cap, per player per round", f"""
select t.game_id, t.event_no, t.player, t.round, t.kind, t.amount, t.lost
from w40k_cp t {GAMES_JOIN} where t.undone = 0 {{games}} {{player}}""",
         "t.player", ("player", "round"),
         (("gained", "sum(case when kind = 'gained' then amount else 0 end)"),
          ("spent", "sum(case when kind = 'spent' then amount else 0 end)"),
          ("lost_to_cap", "sum(lost)"), ("games", "count(distinct game_id)")),
         facts=frozenset({"CommandPointsGained", "CommandPointsSpent"})),
    Spec("ambush", "T9A Ambush arrivals by Game Turn, and those that lost Scoring (AMB-27)", f"""
select t.game_id, t.event_no, t.game_turn, t.scoring, t.roll
from t9a_ambush t {GAMES_JOIN} where t.undone = 0 {{games}} {{player}}""",
         "t.player", ("game_turn",),
         (("arrivals", "count(*)"), ("scoring_lost", count_if("scoring = 'lost'")),
          ("games", "count(distinct game_id)")),
         note="scoring_lost: arrivals in Game Turn 6, which lose Scoring (AMB-27)",
         facts=frozenset({"UnitArrivedFromAmbush"})),
    Spec("aro", "Infinity AROs: how often a skill generated them, and the clause why", f"""
select t.game_id, t.event_no, t.skill, t.generated,
       coalesce(t.rule, case when t.generated = 1 then 'window opened'
                             else 'no enemy eligible' end) as why
from n4_aro t {GAMES_JOIN} where t.undone = 0 {{games}} {{player}}""",
         "t.player", ("skill", "generated", "why"),
         (("count", "count(*)"), ("games", "count(distinct game_id)")), post=add_shares,
         facts=frozenset({"OrderSkillDeclared"}),
         shown=("skill", "generated", "why", "count", "games", "share"),
         note="CAU-10: the Cautious Movement starts and ends outside every enemy's LoF and "
              "ZoC (no ARO); CAU-13: it does not, AROs as usual"),
    Spec("rules", "Clauses most contested: cited by undone steps, refused requests, rulings", f"""
select t.game_id, t.event_no, t.kind, case when t.rule = '' then '(none cited)'
       else t.rule end as rule
from contests t {GAMES_JOIN} where 1 = 1 {{games}}""",
         None, ("rule", "kind"), (("count", "count(*)"), ("games", "count(distinct game_id)")),
         order="count desc, rule, kind",
         facts=frozenset({"StepsUndone", "StepsRedone", "RequestRefused", "RulingRecorded",
                          "ResultRefused"}),
         note="refused commands write no event, so they are not counted; counted: clauses "
              "cited by steps undone or redone, by refused undo/redo requests, rulings' "
              "clauses, and refused results"),
    Spec("mageknight", "Mage Knight actions by kind, damage dealt and taken, dismounts and "
         "unhorses, per player", f"""
select * from ({MK_BASE}) t where 1 = 1 {{player}}""",
         "t.player", ("player", "measure", "kind"),
         (("count", "count(*)"), ("hits", "sum(hit)"), ("damage", "sum(damage)"),
          ("games", "count(distinct game_id)")),
         order="measure, player, kind",
         facts=frozenset({"ActionAssigned", "AttackResolved", "RiderDismounted"}),
         note="action: actions assigned by kind; damage dealt / taken: attacks by the "
              "player's figures / on them (hits, clicks of damage); dismount: riders off "
              "their mounts by cause (unhorsed: knocked off, MNT-106)"),
    Spec("dice", "Dice per player and source, with a chi-square test against a fair die", f"""
select t.game_id, t.event_no, coalesce(t.player, '(set-up)') as player, t.source, t.sides,
       t.value
from dice t {GAMES_JOIN} where 1 = 1 {{games}} {{player}}""",
         "t.player", ("player", "source", "sides", "value"), (("count", "count(*)"),),
         post=dice_fit, explain_keys=("player", "source", "sides"),
         facts=frozenset({"DiceRolled"}), shown=DICE_COLUMNS,
         note="p_value: chi-square goodness of fit against equally likely faces; a small "
              f"value (say < 0.01) is worth a look; small_sample: fewer than {MIN_EXPECTED} "
              "rolls expected per face, too few for the test (its p-value is not to be "
              "trusted)"),
)}


def compile_base(spec: Spec, filters: Filters) -> tuple[str, list[Any]]:
    """The base SQL of a figure with the filters in place, and its parameters
    (in the order their marks appear)."""
    games, games_params = filters.games_in()
    direct, direct_params = filters.games_sql()
    sql, params = "", []
    for token in re.split(r"(\{games\}|\{g\}|\{player\})", spec.base):
        if token == "{games}":
            sql += games
            params += games_params
        elif token == "{g}":
            sql += direct
            params += direct_params
        elif token == "{player}":
            if filters.player is not None and spec.player_column is not None:
                sql += f" and {spec.player_column} = ?"
                params.append(filters.player)
        else:
            sql += token
    return sql, params


def figure_sql(spec: Spec, filters: Filters) -> tuple[str, list[Any]]:
    base, params = compile_base(spec, filters)
    keys = ", ".join(spec.keys)
    sums = ", ".join(f"{expr} as {name}" for name, expr in spec.sums)
    order = spec.order or keys
    return (f"select {keys}, {sums} from ({base}) b group by {keys} order by {order}", params)


class Source:
    """Runs SQL on the analytic tables: SQLite (`?`) or PostgreSQL (`%s`)."""

    def __init__(self, conn: Any, mark: str = "?") -> None:
        self.conn = conn
        self.mark = mark

    def query(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        if self.mark != "?":
            sql = sql.replace("?", self.mark)
        cursor = self.conn.cursor()
        cursor.execute(sql, list(params))
        names = [d[0] for d in cursor.description]
        return [dict(zip(names, plain(r), strict=True)) for r in cursor.fetchall()]


def plain(row: Any) -> tuple[Any, ...]:
    values = row.values() if isinstance(row, dict) else row
    return tuple(int(v) if type(v).__name__ == "Decimal" and v == int(v)
                 else float(v) if type(v).__name__ == "Decimal" else v for v in values)


def check_filters(source: Source, filters: Filters) -> None:
    """Unknown rule set, event or player: one clear line naming what is known."""
    checks = [("rule set", filters.ruleset, "select distinct ruleset as v from games"),
              ("event", filters.event, "select distinct meta_event as v from games "
                                       "where meta_event is not null"),
              ("player", filters.player, "select distinct player as v from players")]
    for what, value, sql in checks:
        if value is None:
            continue
        known = sorted(str(r["v"]) for r in source.query(sql))
        if value not in known:
            shown = ", ".join(known[:12]) + (" …" if len(known) > 12 else "")
            raise StatsError(f"no {what} {value!r} in the analytic tables (known: "
                             f"{shown or 'none'}); if it was played since, run "
                             "`warledger views DB` first")
    if filters.since is not None:
        try:
            datetime.fromisoformat(filters.since)
        except ValueError:
            raise StatsError(f"--since {filters.since!r} is not a date "
                             "(use YYYY-MM-DD)") from None


def figure(source: Source, name: str, filters: Filters) -> Figure:
    spec = SPECS[name]
    sql, params = figure_sql(spec, filters)
    rows = source.query(sql, params)
    return Figure(spec, spec.post(rows) if spec.post else rows)


def explain(source: Source, name: str, filters: Filters, index: int) -> dict[str, Any]:
    """The games and event numbers behind row `index` (1-based) of a figure."""
    shown = figure(source, name, filters)
    if not shown.rows:
        raise StatsError(f"{name} has no rows in these games: there is no row to explain")
    if not 1 <= index <= len(shown.rows):
        raise StatsError(f"{name} has {counted(len(shown.rows), 'row')}; --explain takes "
                         + ("1" if len(shown.rows) == 1 else f"1 to {len(shown.rows)}"))
    row = shown.rows[index - 1]
    spec = shown.spec
    keys = spec.explain_keys or spec.keys
    base, params = compile_base(spec, filters)
    where = " and ".join(f"{k} = ?" for k in keys)
    facts = source.query(f"select game_id, event_no from ({base}) b where {where} "
                         "order by game_id, event_no", [*params, *(row[k] for k in keys)])
    games: dict[str, list[int]] = {}
    for fact in facts:
        events = games.setdefault(str(fact["game_id"]), [])
        if not events or events[-1] != int(fact["event_no"]):
            events.append(int(fact["event_no"]))
    return {"table": name, "row": index, "key": {k: row[k] for k in keys},
            "facts": len(facts), "games": games}


def rule_sets_in(source: Source, filters: Filters) -> list[str]:
    """The rule sets of the chosen games."""
    conditions, params = filters.games_sql()
    rows = source.query(f"select distinct g.ruleset as r from games g where 1 = 1{conditions} "
                        "order by 1", params)
    return [str(row["r"]) for row in rows]


def applying(names: Sequence[str], rule_sets: Sequence[str]) -> list[str]:
    """The figures that apply to games of these rule sets: a figure of core facts
    (results, dice, contested clauses) to every game, a figure of a rule set's own
    facts to the games of a rule set whose wiring table names them (no CP table for
    Infinity). Every figure when there are no games (each says it has no rows)."""
    if not rule_sets:
        return list(names)
    core = core_fact_types()
    wired = [rule_set_fact_types(name) for name in rule_sets]
    return [name for name in names if SPECS[name].facts <= core
            or any(SPECS[name].facts & facts for facts in wired)]


def core_fact_types() -> frozenset[str]:
    """The fact types of the core and of contested moves (`events.rule_sets`)."""
    import importlib

    from domain.ruleset import facts_of
    from events.rule_sets import CORE_FACT_MODULES

    return frozenset(fact_type_name(cls) for module in CORE_FACT_MODULES
                     for cls in facts_of(importlib.import_module(module)))


def rule_set_fact_types(rule_set: str) -> frozenset[str]:
    """The fact types a rule set's wiring table names (none for a rule set that is not
    known here, or has no wiring table)."""
    from domain.errors import ScriptError
    from domain.ruleset import find_ruleset

    try:
        wiring = find_ruleset(rule_set).wiring
    except ScriptError:
        return frozenset()
    return frozenset() if wiring is None else frozenset(fact_type_name(c) for c in wiring.facts)


def fact_type_name(cls: Any) -> str:
    return str(cls.model_fields["type"].default)
