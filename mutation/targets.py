"""Which tests cover which module: a selection that exercises it.

Each mutant runs only those of them that execute its lines (the runner traces
them once), so a broad selection costs one traced run, not a run per mutant.
`make mutation MODULE=domain/dice.py` runs one; `make mutation` runs them all,
one after another (never in parallel: the machine is shared).
"""

from __future__ import annotations

TARGETS: dict[str, list[str]] = {
    # The server's seat store: tokens stored as hashes, on memory, SQLite and PostgreSQL
    # (run in the test process when the tests have a server).
    "warledger/server/seats.py": [
        "tests/server/test_seats.py",
        "tests/server/test_seat_cache.py",
    ],
    "domain/dice.py": [
        "tests/replay/test_pinned.py::test_the_first_hundred_digital_dice_are_pinned",
        "tests/replay/test_pinned.py::test_a_biased_byte_is_rejected_not_folded",
        "tests/replay/test_pinned.py::test_the_rejection_limit_is_exactly_the_largest_multiple_of_the_sides",
        "tests/replay/test_pinned.py::test_a_die_may_have_2_to_256_sides",
        "tests/replay/test_pinned.py::test_a_die_of_fewer_than_2_or_more_than_256_sides_is_an_error",
        "tests/replay/test_pinned.py::test_the_genesis_hash_the_seed_commitment_and_the_event_hash_are_pinned",
        "tests/domain/test_dice.py",
    ],
    "events/envelope.py": [
        "tests/replay/test_pinned.py::test_the_genesis_hash_the_seed_commitment_and_the_event_hash_are_pinned",
        "tests/replay/test_pinned.py::test_every_pinned_event_hash_is_recomputed_as_stored",
        "tests/replay/test_verify.py",
        "tests/events/test_step_hasher.py",
    ],
    # verify: the chain, every decision re-decided, the snapshots, and with the key the
    # signed heads, the snapshots' MACs and the signed-games record.
    "replay/verify.py": [
        "tests/replay/test_forgery.py",
        "tests/replay/test_verify.py",
        "tests/replay/test_verify_snapshots.py",
        "tests/replay/test_snapshots.py",
        "tests/replay/test_keyed.py",
        "tests/replay/test_keyed_forgery.py",
        "tests/replay/test_rules_versions.py",
        "tests/replay/test_verify_versions.py",
        "tests/replay/test_pinned.py::test_a_pinned_log_loads_replays_to_its_state_hash_and_verifies[memory-test-dice-undo-redo]",
        "tests/replay/test_pinned.py::test_a_pinned_log_loads_replays_to_its_state_hash_and_verifies[memory-w40k-battle-round]",
    ],
    # Snapshots are a cache: sealed, checked against the chain, set aside when wrong;
    # with a key, their MAC (replay.keyed).
    "replay/snapshots.py": [
        "tests/replay/test_snapshots.py",
        "tests/replay/test_keyed.py",
    ],
    # What each reader of an export may see (secrets stay secret).
    "replay/export.py": [
        "tests/replay/test_export.py",
        "tests/replay/test_secrets.py",
    ],
    # Player ids a reader can tell apart (identity is real).
    "domain/player_ids.py": [
        "tests/domain/test_player_ids.py",
    ],
    "domain/w40k/limits.py": [
        "tests/domain/w40k/test_limits.py",
        "tests/domain/w40k/test_use_sequence.py",
    ],
    "domain/w40k/cost.py": [
        "tests/domain/w40k/test_cost.py",
    ],
    "domain/gate.py": [
        "tests/domain/test_gate.py",
        "tests/domain/test_gate_writes_nothing.py",
        "tests/domain/test_dice.py::test_a_step_with_dice_it_does_not_roll_is_refused_with_input",
        "tests/domain/test_setup.py",
        "tests/replay/test_undo.py",
        "tests/domain/t9a/test_moves.py",
        "tests/domain/w40k/test_timing.py",
        "tests/replay/test_secrets.py",
        "tests/cli/test_cli.py::test_board_previews_a_command_with_the_verdict_the_rules_would_give",
        "tests/cli/test_cli.py::test_board_does_not_preview_dice",
        "tests/cli/test_cli.py::test_board_previews_a_consent_and_a_step_with_physical_dice",
        "tests/replay/test_rules_versions.py",
    ],
    "domain/windows.py": [
        "tests/domain/test_windows.py",
        "tests/domain/test_gate.py",
        "tests/domain/test_gate_writes_nothing.py",
        "tests/domain/test_results.py",
        "tests/replay/test_undo.py",
        "tests/domain/w40k/test_timing.py",
        "tests/domain/w40k/test_use_sequence.py",
        "tests/domain/infinity/test_move_and_aro.py",
        "tests/domain/infinity/test_order_sequence.py",
    ],
    # The limits and costs of the other rule sets: Infinity's order pool and
    # Cautious Movement, Mage Knight's cavalry restrictions, T9A's arrival.
    "domain/infinity/orders.py": [
        "tests/domain/infinity",
    ],
    "domain/infinity/cautious.py": [
        "tests/domain/infinity",
    ],
    "domain/mageknight/restrictions.py": [
        "tests/domain/mageknight",
    ],
    # Mage Knight's limits and costs of actions: actions per turn, one action a
    # figure, tokens and pushing damage (with MNT-36, MNT-37).
    "domain/mageknight/actions.py": [
        "tests/domain/mageknight",
    ],
    "domain/t9a/arrival.py": [
        "tests/domain/t9a",
    ],
    # Keyed tamper evidence: signed heads and snapshot MACs (run with
    # WARLEDGER_TEST_POSTGRES set: the PostgreSQL heads path is its own code).
    "replay/keyed.py": [
        "tests/replay/test_keyed.py",
        "tests/replay/test_keyed_forgery.py",
        "tests/server/test_keyed_server.py",
    ],
    # The key's record of the games it signed, outside the database.
    "replay/signed_games.py": [
        "tests/replay/test_signed_games.py",
        "tests/replay/test_keyed_forgery.py",
        "tests/replay/test_keyed.py",
    ],
    # T9A's limit of one Move a Movement Phase (CORE-ONE-MOVE) and the rates.
    "domain/t9a/moves.py": [
        "tests/domain/t9a",
    ],
}
