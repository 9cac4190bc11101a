#!/usr/bin/env python3
"""gentext.py - deterministic multilingual UTF-8 text for the -m tests

    gentext.py SHAPE SEED BYTES

SHAPE: mixed (log lines with Latin, Cyrillic, Greek, CJK, Hangul and emoji
words), cjk (mostly CJK and kana), invalid (text with every ill-formed
form sprinkled in), random (random bytes).  Writes at least BYTES bytes
(whole lines) to stdout, the same for the same arguments.
"""
import random
import sys

WORDS = {
    "latin": ["error", "request", "user", "naïve", "café", "Straße",
              "İstanbul", "ÆØÅ", "ǅemal", "Ωmega"],
    "cyrillic": ["запрос", "ошибка", "пользователь", "ЁЖИК"],
    "greek": ["αίτημα", "σφάλμα", "ΧΡΉΣΤΗΣ", "ς"],
    "cjk": ["日本語", "请求", "錯誤", "ユーザー", "ひらがな", "사용자", "〜、。"],
    "emoji": ["😀", "🚀", "👍🏽", "🇩🇪", "𝔘𝔫𝔦"],
    "marks": ["e\u0301", "a\u0308", "\u00a0", "\u2014", "\u2019", "\u200b",
              "\ufeff", "\t"],
}
INVALID = [b"\xc0\x80", b"\xc1\xbf", b"\xe0\x80\x80", b"\xe0\x9f\xbf",
           b"\xed\xa0\x80", b"\xed\xbf\xbf", b"\xf0\x80\x80\x80",
           b"\xf4\x90\x80\x80", b"\xf5\x80", b"\xff", b"\xfe", b"\x80",
           b"\xbf\xbf", b"\xe6\x97", b"\xf0\x9f\x98", b"\xc3", b"\xe2\x82"]


def main():
    shape, seed, size = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    rng = random.Random(seed)
    out = bytearray()
    if shape == "random":
        out = bytearray(rng.getrandbits(8) for _ in range(size))
        sys.stdout.buffer.write(out)
        return
    pools = (["cjk"] * 6 + ["latin"]) if shape == "cjk" else list(WORDS)
    n = 0
    while len(out) < size:
        n += 1
        words = ["2026-11-24T06:%02d:%02d" % (n // 60 % 60, n % 60),
                 "[%s]" % rng.choice(["INFO", "WARN", "ERROR"])]
        for _ in range(rng.randint(3, 12)):
            words.append(rng.choice(WORDS[rng.choice(pools)]))
        line = (" " if shape != "cjk" else "").join(words).encode()
        if shape == "invalid":
            for _ in range(rng.randint(0, 3)):
                at = rng.randint(0, len(line))
                line = line[:at] + rng.choice(INVALID) + line[at:]
        out += line + b"\n"
    sys.stdout.buffer.write(out)


main()
