"""Pictures of `warledger stats` figures (matplotlib, from the `analytics` extra)."""

from __future__ import annotations

from typing import Any

from replay.stats import Figure, StatsError


def plot(fig: Figure, path: str) -> None:
    """Draw a figure as SVG or PNG (by the file's suffix)."""
    if not path.endswith((".svg", ".png")):
        raise StatsError(f"--plot {path}: give a .svg or .png file")
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        from warledger.extras import install_hint

        raise StatsError(install_hint("analytics", "--plot (matplotlib)")) from None
    draw = DRAWERS.get(fig.spec.name)
    if draw is None:
        raise StatsError(f"there is no picture of {fig.spec.name}; plot one of "
                         f"{', '.join(sorted(DRAWERS))}")
    if not fig.rows:
        raise StatsError(f"{fig.spec.name} has no rows to draw in these games")
    wide = fig.spec.name == "results" and len(fig.rows) > 12
    panels = PANELS.get(fig.spec.name, 1)
    figure, axes = plt.subplots(1, panels, dpi=110, squeeze=False, figsize=(
        max(9.0, 0.55 * len(fig.rows)) if wide else 4.5 * panels if panels > 1 else 9, 5.5))
    draw(list(axes[0]) if panels > 1 else axes[0][0], fig.rows)
    figure.suptitle(fig.spec.title, fontsize=10)
    for panel in axes[0]:
        panel.grid(axis="x" if panels > 1 else "y", alpha=0.3)
    figure.tight_layout()
    figure.savefig(path)
    plt.close(figure)


def win_rates(axes: Any, rows: list[dict[str, Any]]) -> None:
    labels = [f"{r['ruleset']}: {r['grp']}" for r in rows]
    rates = [r["win_rate"] for r in rows]
    low = [r["win_rate"] - r["ci_low"] for r in rows]
    high = [r["ci_high"] - r["win_rate"] for r in rows]
    colours = ["tab:blue" if r["dimension"] == "faction" else "tab:orange" for r in rows]
    axes.bar(range(len(rows)), rates, yerr=[low, high], capsize=4, color=colours)
    for x, r in enumerate(rows):
        axes.annotate(f"N={r['player_games']}", (x, 0.02), ha="center", fontsize=7, color="white",
                      rotation=90 if len(rows) > 12 else 0)
    axes.axhline(0.5, color="grey", linestyle="--", linewidth=1)
    axes.set_xticks(range(len(rows)), labels, fontsize=7, rotation=40, ha="right",
                    rotation_mode="anchor")
    axes.set_ylim(0, 1)
    axes.set_ylabel("win rate (95% Wilson interval)")


#: One colour, marker and offset per player (CP lines of equal values never hide
#: each other: each player's points sit a little apart, drawn in their own style).
PLAYER_STYLES = (("tab:red", "o"), ("tab:blue", "^"), ("tab:green", "s"), ("tab:purple", "D"))
PLAYER_COLOURS = {"red": "tab:red", "blue": "tab:blue", "green": "tab:green"}


def cp_per_round(axes: Any, rows: list[dict[str, Any]]) -> None:
    players = sorted({r["player"] for r in rows})
    for k, player in enumerate(players):
        colour, marker = PLAYER_STYLES[k % len(PLAYER_STYLES)]
        colour = PLAYER_COLOURS.get(player, colour)
        shift = (k - (len(players) - 1) / 2) * 0.08
        mine = sorted((r for r in rows if r["player"] == player), key=lambda r: r["round"])
        rounds = [r["round"] + shift for r in mine]
        axes.plot(rounds, [r["gained"] / r["games"] for r in mine], marker=marker,
                  color=colour, linewidth=2, label=f"{player} gained")
        axes.plot(rounds, [r["spent"] / r["games"] for r in mine], marker=marker,
                  color=colour, linestyle="--", markerfacecolor="white", linewidth=1.5,
                  label=f"{player} spent")
    axes.set_xlabel("battle round")
    axes.set_xticks(sorted({r["round"] for r in rows}))
    axes.set_ylim(bottom=0)
    axes.set_ylabel("CP per game that reached the round")
    axes.legend(fontsize=8)


def arrival_turns(axes: Any, rows: list[dict[str, Any]]) -> None:
    turns = [r["game_turn"] for r in rows]
    kept = [r["arrivals"] - r["scoring_lost"] for r in rows]
    lost = [r["scoring_lost"] for r in rows]
    axes.bar(turns, kept, label="arrived, Scoring kept")
    axes.bar(turns, lost, bottom=kept, color="tab:red", label="arrived in Game Turn 6: "
             "Scoring lost (AMB-27)")
    axes.set_xlabel("Game Turn of arrival")
    axes.set_ylabel("arrivals")
    axes.set_xticks(turns)
    axes.set_ylim(0, max(r["arrivals"] for r in rows) * 1.15)
    axes.legend(fontsize=8)


def dice_faces(axes: Any, rows: list[dict[str, Any]]) -> None:
    """Each group's share of each face; a group too small for the chi-square test
    (`small_sample`) is drawn hatched and pale, and says so in the legend."""
    width = 0.8 / len(rows)
    for i, r in enumerate(rows):
        faces = sorted(r["faces"], key=int)
        share = [r["faces"][f] / r["dice"] for f in faces]
        xs = [int(f) + (i - len(rows) / 2 + 0.5) * width for f in faces]
        small = bool(r.get("small_sample"))
        test = "too few dice for the test" if small else f"p={r['p_value']}"
        axes.bar(xs, share, width=width, alpha=0.35 if small else 1.0,
                 hatch="//" if small else None,
                 label=f"{r['player']} {r['source']} d{r['sides']} (N={r['dice']}, {test})")
    sides = max(r["sides"] for r in rows)
    axes.axhline(1 / sides, color="grey", linestyle="--", linewidth=1, label="fair die")
    axes.set_xlabel("face")
    axes.set_ylabel("share of rolls")
    axes.legend(fontsize=7)


def stratagem_uses(panels: list[Any], rows: list[dict[str, Any]]) -> None:
    """Uses and CP paid in three panels: per stratagem, per phase, per round."""
    for axes, dimension in zip(panels, ("stratagem", "phase", "round"), strict=True):
        mine = [r for r in rows if r["dimension"] == dimension]
        if dimension == "round":
            mine.sort(key=lambda r: int(r["grp"]), reverse=True)
        labels = [r["grp"] if dimension != "round" else f"round {r['grp']}" for r in mine]
        axes.barh(labels, [r["uses"] for r in mine], label="uses")
        axes.barh(labels, [r["cp"] for r in mine], height=0.4, label="CP paid")
        axes.set_title(f"per {dimension}", fontsize=9)
        axes.set_xlabel("count")
        axes.tick_params(axis="y", labelsize=8)
    panels[0].legend(fontsize=8)


#: Figures drawn in several panels side by side (one per dimension).
PANELS = {"stratagems": 3}
DRAWERS = {"results": win_rates, "cp": cp_per_round, "ambush": arrival_turns,
           "dice": dice_faces, "stratagems": stratagem_uses}
