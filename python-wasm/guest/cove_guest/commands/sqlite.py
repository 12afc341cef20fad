"""sqlite3: a minimal CLI over the stdlib module (SQL arguments or stdin, .tables,
.schema, -header -csv -json)."""

import json

from cove_guest.shell.io import Context
from cove_guest.text.errors import UsageError
from cove_guest.text.inputs import decode
from cove_guest.text.options import parse_options


def sqlite3(ctx: Context, args: list[str]) -> int:
    import sqlite3 as _sql

    _on, _, names = parse_options(
        args, "", long_map={"header": "header", "csv": "csv", "json": "json"}
    )
    flags = set(a.lstrip("-") for a in args if a.startswith("-"))
    names = [n for n in names]
    if not names:
        raise UsageError("usage: sqlite3 DATABASE [SQL]")
    db = names[0]
    sql = " ".join(names[1:]) if len(names) > 1 else decode(ctx.stdin)
    sep = "," if "csv" in flags else "|"
    try:
        con = _sql.connect(db)
    except _sql.Error as exc:
        ctx.err.write(f"Error: {exc}\n")
        return 1
    try:
        for statement in [s for s in _split_sql(sql) if s.strip()]:
            stripped = statement.strip()
            if stripped.startswith("."):
                cmd = stripped.split()
                if cmd[0] == ".tables":
                    rows = con.execute(
                        "select name from sqlite_master where type='table' order by name"
                    ).fetchall()
                    ctx.out.write("  ".join(r[0] for r in rows) + ("\n" if rows else ""))
                elif cmd[0] == ".schema":
                    for (text,) in con.execute(
                        "select sql from sqlite_master where sql is not null"
                    ):
                        ctx.out.write(text + ";\n")
                else:
                    ctx.err.write(f'Error: unknown command or invalid arguments: "{cmd[0][1:]}"\n')
                    return 1
                continue
            cur = con.execute(stripped)
            rows = cur.fetchall()
            if "json" in flags and cur.description:
                cols = [d[0] for d in cur.description]
                ctx.out.write(json.dumps([dict(zip(cols, r, strict=False)) for r in rows]) + "\n")
                continue
            if "header" in flags and cur.description and rows:
                ctx.out.write(sep.join(d[0] for d in cur.description) + "\n")
            for r in rows:
                ctx.out.write(sep.join("" if v is None else str(v) for v in r) + "\n")
        con.commit()
    except _sql.Error as exc:
        ctx.err.write(f"Error: {exc}\n")
        return 1
    finally:
        con.close()
    return 0


def _split_sql(sql: str) -> list[str]:
    """The statements of `sql` (and its `.dot` commands), split at `;` outside quotes."""
    parts: list[str] = []
    cur: list[str] = []
    quote: str | None = None
    for line in sql.splitlines(keepends=True):
        if not cur and line.strip().startswith(".") and quote is None:
            parts.append(line)
            continue
        for ch in line:
            cur.append(ch)
            if quote:
                if ch == quote:
                    quote = None
            elif ch in "'\"":
                quote = ch
            elif ch == ";":
                parts.append("".join(cur)[:-1])
                cur = []
    if "".join(cur).strip():
        parts.append("".join(cur))
    return parts
