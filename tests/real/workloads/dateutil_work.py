"""python-dateutil workload: parse free-form and ISO 8601 timestamps the way a log or CSV
importer does (dateutil.parser.parse with dayfirst/fuzzy variants, isoparse), do calendar
arithmetic with relativedelta, expand recurrence rules (rrule, rrulestr) and convert
between fixed-offset and POSIX-TZ-string zones (no system tz database is read).
Deterministic; prints a CRC32 of all results."""

import zlib
from datetime import datetime

from dateutil import parser, rrule, tz
from dateutil.relativedelta import relativedelta

MONTHS = ["Jan", "February", "Mar", "April", "May", "Jun", "July", "Aug", "Sept", "Oct",
          "November", "Dec"]
TEMPLATES = [
    "{y}-{m:02d}-{d:02d}T{h:02d}:{mi:02d}:{s:02d}Z",
    "{y}-{m:02d}-{d:02d} {h:02d}:{mi:02d}:{s:02d}.{ms:06d}+05:30",
    "{d} {mon} {y} {h}:{mi:02d} PM",
    "{mon} {d}, {y} at {h}:{mi:02d}:{s:02d}",
    "{m}/{d}/{y} {h:02d}:{mi:02d}",
    "Mon, {d:02d} {mon3} {y} {h:02d}:{mi:02d}:{s:02d} -0700",
    "{y}{m:02d}{d:02d}T{h:02d}{mi:02d}{s:02d}",
    "{d}.{m}.{y}",
    "log line: user logged in on {mon} {d} {y} {h}:{mi:02d}:{s:02d} from host",
    "{y}-W{w:02d}-{wd}",
]

INPUTS = []
for i in range(160):
    f = dict(y=1990 + i % 35, m=i % 12 + 1, d=i % 28 + 1, h=i % 12 + 1, mi=i % 60, s=(i * 7) % 60,
             ms=i * 1234 % 1000000, mon=MONTHS[i % 12], mon3=MONTHS[i % 12][:3],
             w=i % 52 + 1, wd=i % 7 + 1)
    INPUTS.append(TEMPLATES[i % len(TEMPLATES)].format(**f))

ZONES = [tz.tzutc(), tz.tzoffset("IST", 19800), tz.tzoffset(None, -25200),
         tz.tzstr("EST5EDT,M3.2.0,M11.1.0"), tz.tzstr("CET-1CEST,M3.5.0,M10.5.0/3")]

crc = 0
n = 0
for rnd in range(28):
    for text in INPUTS:
        if "-W" in text:
            dt = parser.isoparse(text)
        elif text.startswith("log"):
            dt = parser.parse(text, fuzzy=True)
        else:
            dt = parser.parse(text, dayfirst=(rnd % 2 == 1 and "." in text))
        if dt.tzinfo is None:
            dt = dt.replace(tzinfo=ZONES[n % len(ZONES)])
        for zone in ZONES:
            crc = zlib.crc32(dt.astimezone(zone).isoformat().encode(), crc)
        n += 1
    for text in INPUTS[::3]:
        if "-W" in text or text.startswith(("log", "Mon", "{")) or "PM" in text or "at" in text:
            continue
        try:
            crc = zlib.crc32(parser.isoparse(text).isoformat().encode(), crc)
        except ValueError:
            n += 1

start = datetime(2020, 1, 31, 9, 30)
for k in range(3000):
    d = start + relativedelta(months=+k, days=-(k % 5), hours=+k % 24,
                              weekday=rrule.weekdays[k % 7](+1))
    d2 = d - relativedelta(years=k % 3, months=k % 11, day=31)
    delta = relativedelta(d, d2)
    crc = zlib.crc32(f"{d.isoformat()} {d2.isoformat()} {delta}".encode(), crc)

rules = [
    rrule.rrule(rrule.WEEKLY, dtstart=start, count=200, byweekday=(rrule.MO, rrule.WE, rrule.FR)),
    rrule.rrule(rrule.MONTHLY, dtstart=start, count=120, bysetpos=-1, byweekday=rrule.FR),
    rrule.rrule(rrule.DAILY, dtstart=start, until=datetime(2021, 12, 31), byhour=(9, 17),
                byminute=0),
    rrule.rrulestr("DTSTART:20200101T080000\n"
                   "RRULE:FREQ=HOURLY;INTERVAL=5;COUNT=300;BYDAY=MO,TU,WE,TH,FR"),
    rrule.rrulestr("DTSTART:19970902T090000\n"
                   "RRULE:FREQ=YEARLY;COUNT=40;BYMONTH=1,7;BYMONTHDAY=1,15"),
]
for rnd in range(10):
    for r in rules:
        for d in r:
            crc = zlib.crc32(d.isoformat().encode(), crc)
            n += 1
    ruleset = rrule.rruleset()
    ruleset.rrule(rules[0])
    ruleset.exdate(datetime(2020, 2, 3, 9, 30))
    n += sum(1 for _ in ruleset.between(datetime(2020, 3, 1), datetime(2021, 3, 1)))
print(f"dateutil: {n} values, crc {crc:08x}")
