"""date: GNU's common `-d` forms, `+FORMAT` with GNU's extensions, and the time zone
from TZ."""

import datetime
import os
import re
from collections.abc import Sequence

from cove_guest.shell.io import Context
from cove_guest.text.errors import ShellError, UsageError, os_message


def date(ctx: Context, args: list[str]) -> int:
    utc = False
    fmt = when = ref = None
    args = list(args)
    i = 0
    while i < len(args):
        a = args[i]
        if len(a) > 2 and a[0] == "-" and a[1] in "uR":
            args[i : i + 1] = [a[:2], "-" + a[2:]]  # bundled: -ud STRING, -uR
            a = args[i]
        if a in ("-u", "--utc", "--universal"):
            utc = True
        elif a in ("-d", "--date", "-r", "--reference"):
            if i + 1 >= len(args):
                raise UsageError(f"option requires an argument -- '{a.lstrip('-')[0]}'")
            i += 1
            if a in ("-d", "--date"):
                when = args[i]
            else:
                ref = args[i]
        elif a.startswith("--date="):
            when = a[7:]
        elif a.startswith("--reference="):
            ref = a[12:]
        elif a.startswith("-d") and len(a) > 2:
            when = a[2:]
        elif a.startswith("-I") or a.startswith("--iso-8601"):
            spec = a[2:] if a.startswith("-I") else a[len("--iso-8601") :].lstrip("=")
            fmt = _DATE_ISO.get(spec or "date")
            if fmt is None:
                raise UsageError(f"invalid argument '{spec}' for '--iso-8601'")
        elif a in ("-R", "--rfc-email", "--rfc-2822"):
            fmt = "%a, %d %b %Y %H:%M:%S %z"
        elif a.startswith("--rfc-3339="):
            fmt = {
                "date": "%Y-%m-%d",
                "seconds": "%Y-%m-%d %H:%M:%S%:z",
                "ns": "%Y-%m-%d %H:%M:%S.%N%:z",
            }.get(a[11:])
            if fmt is None:
                raise UsageError(f"invalid argument '{a[11:]}' for '--rfc-3339'")
        elif a in ("-s", "--set") or a.startswith("--set="):
            ctx.err.write("date: cannot set date: Operation not permitted\n")
            return 1
        elif a.startswith("+"):
            if fmt is not None and not fmt.startswith("%"):
                raise UsageError("multiple output formats specified")
            fmt = a[1:]
        elif a.startswith("-") and a != "-":
            raise UsageError(f"invalid option -- '{a[1:2]}'")
        else:
            raise ShellError(f"invalid date '{a}'")
        i += 1
    tz = date_zone(ctx, utc)
    moment: datetime.datetime | None
    if ref is not None:
        try:
            moment = datetime.datetime.fromtimestamp(os.stat(ref).st_mtime, tz)
        except OSError as exc:
            raise ShellError(f"{ref}: {os_message(exc)}") from None
    elif when is not None:
        moment = parse_date(when, tz)
        if moment is None:
            ctx.err.write(f"date: invalid date '{when}'\n")
            return 1
    else:
        moment = datetime.datetime.now(tz)
    ctx.out.write(_strftime(moment, "%a %b %e %H:%M:%S %Z %Y" if fmt is None else fmt) + "\n")
    return 0


_DATE_ISO = {
    "date": "%Y-%m-%d",
    "hours": "%Y-%m-%dT%H%:z",
    "minutes": "%Y-%m-%dT%H:%M%:z",
    "seconds": "%Y-%m-%dT%H:%M:%S%:z",
    "ns": "%Y-%m-%dT%H:%M:%S,%N%:z",
}


def date_zone(ctx: Context, utc: bool) -> datetime.tzinfo | None:
    """The zone date shows: UTC for -u or TZ=UTC (the sandbox's clock is UTC), a named TZ when
    the zone database has it, else the local zone."""
    name = ctx.env.get("TZ")
    if utc or (
        name is not None
        and name.lstrip(":") in ("", "UTC", "UTC0", "GMT", "GMT0", "Etc/UTC", "UCT", "Z")
    ):
        return datetime.UTC
    if name:
        try:
            import zoneinfo

            return zoneinfo.ZoneInfo(name.lstrip(":"))
        except Exception:
            return datetime.UTC
    return datetime.datetime.now().astimezone().tzinfo


def _strftime(moment: datetime.datetime, fmt: str) -> str:
    """strftime with GNU date's extensions: %N (nanoseconds), %s (epoch seconds), %:z, %P, and
    the padding flags `-`, `_` and `^`."""

    def conv(m: re.Match[str]) -> str:
        flag, spec = m.group(1), m.group(2)
        if spec == "%":
            return "%"
        if spec == "N":
            value = f"{moment.microsecond * 1000:09d}"
        elif spec == "s":
            value = str(int(moment.timestamp() // 1))
        elif spec == ":z":
            z = moment.strftime("%z")
            value = z[:3] + ":" + z[3:] if z else ""
        elif spec == "P":
            value = moment.strftime("%p").lower()
        elif spec in "ekl":
            value = f"{(moment.day, moment.hour, (moment.hour % 12) or 12)['ekl'.index(spec)]:2d}"
        else:
            value = moment.strftime("%" + spec)
        if flag == "-" and value.strip().isdigit():
            value = value.lstrip("0 ") or "0"
        elif flag == "_" and value.isdigit():
            value = (value.lstrip("0") or "0").rjust(len(value))
        elif flag == "^":
            value = value.upper()
        return value

    return re.sub(r"%([-_^]?)(:z|.)", conv, fmt)


MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]


_WEEKDAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]


_UNITS = {
    "year": ("months", 12),
    "month": ("months", 1),
    "fortnight": ("days", 14),
    "week": ("days", 7),
    "day": ("days", 1),
    "hour": ("seconds", 3600),
    "minute": ("seconds", 60),
    "min": ("seconds", 60),
    "second": ("seconds", 1),
    "sec": ("seconds", 1),
}


_DATE_TOKEN = re.compile(
    r"\s*(?:(?P<iso>\d{4}-\d{1,2}-\d{1,2})t?|(?P<us>\d{1,2}/\d{1,2}/\d{4})"
    r"|(?P<time>\d{1,2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?)(?P<tzo>z|[+-]\d{2}:?\d{2})?"
    r"|(?P<num>[+-]?\s*\d+)|(?P<word>[a-z]+\.?)|(?P<comma>,))"
)


def _date_word(word: str, table: Sequence[str], full: Sequence[str]) -> int | None:
    """The index of `word` in `table` (three-letter prefixes), or None."""
    w = word.rstrip(".")
    for k, short in enumerate(table):
        if w == short or (w.startswith(short) and full[k].startswith(w)):
            return k
    return None


def parse_date(text: str, tz: datetime.tzinfo | None) -> datetime.datetime | None:
    """GNU date's -d: ISO dates and times, `@EPOCH`, month names, now/today/yesterday/tomorrow,
    relative items (`+3 days`, `2 weeks ago`, `next monday`, `last month`) on a base date.
    Returns an aware datetime, or None for what GNU would refuse."""
    s = text.strip().lower()
    m = re.fullmatch(r"@\s*([+-]?\d+(?:\.\d+)?)", s)
    if m:
        return datetime.datetime.fromtimestamp(float(m.group(1)), tz)
    months_full = [
        "january",
        "february",
        "march",
        "april",
        "may",
        "june",
        "july",
        "august",
        "september",
        "october",
        "november",
        "december",
    ]
    days_full = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
    tokens = []
    pos = 0
    while pos < len(s):
        m = _DATE_TOKEN.match(s, pos)
        if not m or m.end() == pos:
            if s[pos:].strip() == "":
                break
            return None
        pos = m.end()
        kind = m.lastgroup if m.lastgroup != "tzo" else "time"
        assert kind is not None  # every alternative of _DATE_TOKEN is a named group
        tokens.append((kind, m.group(kind), m))
    ymd = hms = zone = None
    rel = {"months": 0, "days": 0, "seconds": 0}
    weekday = None
    ordinal = None
    last_rel = None
    month_word = None
    loose = []  # plain numbers waiting for a month name
    k = 0
    while k < len(tokens):
        kind, value, m = tokens[k]
        nxt = tokens[k + 1] if k + 1 < len(tokens) else (None, None, None)
        if kind == "iso":
            if ymd:
                return None
            ymd = tuple(int(x) for x in value.split("-"))
        elif kind == "us":
            if ymd:
                return None
            mo, d, y = (int(x) for x in value.split("/"))
            ymd = (y, mo, d)
        elif kind == "time":
            if hms:
                return None
            parts = value.split(":")
            sec = parts[2] if len(parts) > 2 else "0"
            whole, _, frac = sec.replace(",", ".").partition(".")
            hms = [int(parts[0]), int(parts[1]), int(whole), int((frac + "000000")[:6])]
            tzo = m.group("tzo")
            if tzo:
                zone = 0 if tzo == "z" else _date_offset(tzo)
            elif nxt[0] == "num" and nxt[1][0] in "+-":
                zone = _date_offset(nxt[1].replace(" ", ""))  # GNU reads `12:30 +1` as a zone
                if zone is None:
                    return None
                k += 1
        elif kind == "num":
            n = int(value.replace(" ", ""))
            unit = _date_unit(nxt[1]) if nxt[0] == "word" else None
            if unit is not None:
                field, mult = _UNITS[unit]
                rel[field] += n * mult
                last_rel = (field, n * mult)
                k += 1
            elif nxt[0] == "word" and nxt[1] in ("am", "pm") and hms is None and value.isdigit():
                hms = [n, 0, 0, 0]  # `2pm`
            elif re.fullmatch(r"\d{8}", value) and ymd is None:
                ymd = (int(value[:4]), int(value[4:6]), int(value[6:]))
            elif value.isdigit():
                loose.append(n)
            else:
                return None
        elif kind == "word":
            w = value.rstrip(".")
            if w in ("now", "today"):
                pass
            elif w in ("yesterday", "tomorrow"):
                rel["days"] += -1 if w == "yesterday" else 1
            elif w in ("next", "last", "this"):
                ordinal = {"next": 1, "last": -1, "this": 0}[w]
                if nxt[0] != "word":
                    return None
            elif w == "ago":
                if last_rel is None:
                    return None
                rel[last_rel[0]] -= 2 * last_rel[1]
                last_rel = None
            elif w in ("utc", "gmt", "z"):
                zone = 0
            elif w in ("am", "pm"):
                if not hms or not 1 <= hms[0] <= 12:
                    return None
                hms[0] = hms[0] % 12 + (12 if w == "pm" else 0)
            elif (unit := _date_unit(w)) is not None:
                field, mult = _UNITS[unit]
                n = 1 if ordinal is None else ordinal
                rel[field] += n * mult
                last_rel = (field, n * mult)
                ordinal = None
            elif (day_of_week := _date_word(w, _WEEKDAYS, days_full)) is not None:
                if weekday is not None:
                    return None
                weekday = (0 if ordinal is None else ordinal, day_of_week)
                ordinal = None
            elif (month_index := _date_word(w, MONTHS, months_full)) is not None:
                if month_word is not None or ymd:
                    return None
                month_word = month_index + 1
            else:
                return None
        k += 1
    if month_word is not None:
        # `Mar 1 2024`, `1 Mar 2024`, `March 1, 2024`, `Mar 1` (this year)
        day = next((n for n in loose if n <= 31), None)
        year = next((n for n in loose if n > 31), None)
        if day is None or len(loose) > 2:
            return None
        ymd = (year if year is not None else datetime.datetime.now(tz).year, month_word, day)
    elif loose:
        return None
    now = datetime.datetime.now(tz)
    try:
        if ymd is None:
            ymd = (now.year, now.month, now.day)
            if hms is None and weekday is None:
                hms = [now.hour, now.minute, now.second, now.microsecond]
        elif weekday is not None:
            weekday = None  # GNU ignores a day of the week next to a calendar date
        hms = hms or [0, 0, 0, 0]
        # ymd is (year, month, day) and hms (hour, minute, second, microsecond); mypy cannot
        # tell that the variable-length tuple leaves tzinfo alone.
        base = datetime.datetime(*ymd, *hms)  # type: ignore[arg-type]
        if weekday is not None:
            order, day = weekday
            w = base.weekday()
            base += datetime.timedelta(
                days=(day - w + 7) % 7 + 7 * (order - (order > 0 and w != day))
            )
        months = base.year * 12 + base.month - 1 + rel["months"]
        # mktime's normalization: Jan 31 + 1 month is Mar 2 (or 3)
        base = datetime.datetime(
            months // 12, months % 12 + 1, 1, base.hour, base.minute, base.second, base.microsecond
        ) + datetime.timedelta(days=base.day - 1 + rel["days"])
        zone_info = tz if zone is None else datetime.timezone(datetime.timedelta(seconds=zone))
        moment = base.replace(tzinfo=zone_info)
        return (moment + datetime.timedelta(seconds=rel["seconds"])).astimezone(tz)
    except (ValueError, OverflowError):
        return None


def _date_unit(word: str) -> str | None:
    """`days` / `day` / `min` / `secs`: the unit's name in _UNITS, or None."""
    for name in (word, word[:-1] if word.endswith("s") else None):
        if name in _UNITS:
            return name
    return None


def _date_offset(text: str) -> int | None:
    """`+1`, `-05`, `+0200`, `+02:00` as seconds east of UTC, or None."""
    m = re.fullmatch(r"([+-])(\d{1,2})(?::?(\d{2}))?", text)
    if not m:
        return None
    sign = -1 if m.group(1) == "-" else 1
    return sign * (int(m.group(2)) * 3600 + int(m.group(3) or 0) * 60)
