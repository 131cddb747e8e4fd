"""The explorer's outputs from the evaluated candidates: the records of
build/explore/<target>.json (front marked), the recommended config, the
comparison with the shipped kernel, and the printed table."""
from __future__ import annotations

from typing import Any

from toolkit.table import render

from . import pareto

Record = dict[str, Any]


def record(config: dict[str, Any], result: dict[str, Any], shipped: bool, budget_log2: int,
           max_table_bytes: int | None) -> Record:
    """One candidate of the JSON schema (issue 16), plus status and limits."""
    proven = result.get("proven_err_2p63")
    table = result.get("table_bytes")
    return {"config": config, "status": result.get("status", "?"), "shipped": shipped,
            "instructions": result.get("instructions"), "cycles": result.get("cycles"),
            "table_bytes": table, "code_bytes": result.get("code_bytes"),
            "proven_err_2p63": proven, "measured_err_2p63": result.get("measured_err_2p63"),
            "within_budget": proven is not None and proven <= 2.0 ** (budget_log2 + 63),
            "within_table_limit": table is not None and (max_table_bytes is None or table <= max_table_bytes),
            "on_front": False}


def mark_front(records: list[Record]) -> None:
    """on_front over the candidates measured in full (status ok)."""
    ok = [r for r in records if r["status"] == "ok"]
    flags = pareto.on_front([(float(r["instructions"]), float(r["proven_err_2p63"]), float(r["table_bytes"]))
                             for r in ok])
    for r, flag in zip(ok, flags):
        r["on_front"] = flag


def recommended(records: list[Record]) -> Record | None:
    """The cheapest point of the front within the budget and the table limit
    (ties: smaller proven error, then smaller table, then name)."""
    fits = [r for r in records if r["on_front"] and r["within_budget"] and r["within_table_limit"]]
    if not fits:
        return None
    return min(fits, key=lambda r: (r["instructions"], r["proven_err_2p63"], r["table_bytes"], r["config"]["name"]))


def comparison(records: list[Record], shipped_name: str) -> str:
    """Whether the front has a point at least as good as the shipped kernel
    on both cost and proven error, or holds the shipped kernel itself."""
    ship = next((r for r in records if r["shipped"]), None)
    if ship is None or ship["status"] != "ok":
        return f"the shipped {shipped_name} was not measured ({'absent' if ship is None else ship['status']})"
    where = "" if ship["within_table_limit"] else \
        f" (its table, {ship['table_bytes']} B, exceeds MAX_TABLE_BYTES)"
    better = [r for r in records if r["on_front"] and not r["shipped"] and r["within_table_limit"]
              and r["instructions"] <= ship["instructions"] and r["proven_err_2p63"] <= ship["proven_err_2p63"]]
    if better:
        best = min(better, key=lambda r: (r["instructions"], r["proven_err_2p63"]))
        verdict = "matches" if (best["instructions"], best["proven_err_2p63"]) == \
            (ship["instructions"], ship["proven_err_2p63"]) else "beats"
        return (f"{best['config']['name']} {verdict} the shipped {shipped_name} within the limits: "
                f"{best['instructions']:g} vs {ship['instructions']:g} instructions, proven "
                f"{best['proven_err_2p63']:g} vs {ship['proven_err_2p63']:g} units of 2^-63{where}")
    if ship["on_front"]:
        return (f"no other point is as good on both cost and proven error; the front includes the shipped "
                f"{shipped_name} itself ({ship['instructions']:g} instructions, proven "
                f"{ship['proven_err_2p63']:g} units of 2^-63){where}")
    return f"the shipped {shipped_name} is dominated, but by no point within the limits{where}"


def _short(status: str, width: int = 70) -> str:
    """A status cut to one table cell (the JSON keeps it whole)."""
    return status if len(status) <= width else status[:width - 3] + "..."


def _batch(r: Record, isas: list[str]) -> str | None:
    """A record's batch cycles per element, "a / b" in the order of isas."""
    got = r.get("batch_isa_cycles") or {}
    return " / ".join(f"{got[i]:g}" if i in got else "-" for i in isas) if got else None


def table(records: list[Record], style: str = "text") -> str:
    """Measured candidates sorted by cost, then the others; a column of
    batch cycles per element where any record has batch forms timed."""
    isas = sorted({i for r in records for i in (r.get("batch_isa_cycles") or {})}, reverse=True)
    head = ["config", "insn/call", "cycles", "table B", "code B", "proven 2^-63", "measured 2^-63",
            "budget", "front", "status"]
    if isas:
        head.insert(3, f"batch c/elem ({' / '.join(isas)})")
    rows = sorted(records, key=lambda r: (r["status"] != "ok", r["instructions"] or 0, r["config"]["name"]))
    body = []
    for r in rows:
        row = [r["config"]["name"] + (" (shipped)" if r["shipped"] else ""),
               None if r["instructions"] is None else f"{r['instructions']:g}", r["cycles"], r["table_bytes"],
               r["code_bytes"], None if r["proven_err_2p63"] is None else f"{r['proven_err_2p63']:g}",
               None if r["measured_err_2p63"] is None else f"{r['measured_err_2p63']:.3f}",
               "ok" if r["within_budget"] else "over", "*" if r["on_front"] else "", _short(r["status"])]
        if isas:
            row.insert(3, _batch(r, isas))
        body.append(row)
    return render(head, body, style)
