"""idna workload: encode and decode internationalised domain names the way an HTTP client
or URL parser does — UTS #46 mapping plus IDNA 2008 validation (bidi, contextual rules,
joiners) over a fixed set of labels in many scripts, ASCII and Unicode, to ACE and back.
Deterministic; prints a CRC32 of all encodings."""

import zlib

import idna

LABELS = [
    "bücher", "münchen", "straße", "pelé", "español", "français", "københavn", "zürich",
    "пример", "испытание", "москва", "δοκιμή", "ελλάδα", "例え", "テスト", "ドメイン名例",
    "中国", "香港", "한국", "실례", "مثال", "إختبار", "עברית", "परीक्षा", "उदाहरण", "ไทย",
    "ශ්‍රී", "நிகழ்", "ଓଡ଼ିଆ", "ka\u0301fe", "example", "www", "mail-server", "api-v2",
    "xn--nxasmq6b", "a1b2c3", "long" + "x" * 40,
]
TLDS = ["com", "org", "de", "рф", "中国", "info", "ελ", "net"]

names = []
for i, label in enumerate(LABELS):
    for k in range(5):
        second = LABELS[(i * 3 + k) % len(LABELS)]
        tld = TLDS[(i + k) % len(TLDS)]
        names.append(f"{label}.{second}.{tld}" if k % 2 else f"{label}-{k}.{tld}")
        names.append(f"{label.upper()}.{second}.{tld}")

crc = 0
ok = bad = 0
for rnd in range(34):
    for name in names:
        try:
            ace = idna.encode(name, uts46=True)
        except idna.IDNAError:
            bad += 1
            continue
        back = idna.decode(ace)
        ok += 1
        crc = zlib.crc32(ace, crc)
        crc = zlib.crc32(back.encode(), crc)
        if rnd == 0:
            for part in back.split("."):
                try:
                    crc = zlib.crc32(idna.alabel(part), crc)
                    crc = zlib.crc32(idna.ulabel(idna.alabel(part)).encode(), crc)
                except idna.IDNAError:
                    bad += 1
print(f"idna: {ok} ok, {bad} rejected, crc {crc:08x}")
