/* SPDX-License-Identifier: MIT */
/*
 * kf_text.h - names as text: which names a file may hold, and how a name
 * is shown. Private to kfb: the library's messages, kfc and kfplay (which
 * link the static library) show a name by these functions alone, so that
 * each shows it as the others do.
 *
 * A name comes from a file (a .kfb from a third party, a source, a scene)
 * and may hold bytes a terminal acts on: C0 controls and DEL, the C1
 * controls U+0080 to U+009F (UTF-8 C2 80 to C2 9F, which terminals that act
 * on C1 take as CSI, OSC and the others), and bytes that are not UTF-8
 * (which a terminal may read as C1 in another encoding). Those bytes are
 * not shown: they are written \xNN, one escape a byte.
 *
 * A name is written as it is but for those bytes and a backslash, written
 * \\; between quotes, a quote is written \'. So the text written reads back
 * as one name: a name holding ESC shows as \x1b, one holding the four
 * characters \x1b as \\x1b. A message escapes only the bytes not shown, so
 * that a name it quotes is not escaped twice.
 */
#ifndef KF_TEXT_H
#define KF_TEXT_H

#include <stddef.h>

/* Whether `name` is a name kfc can write and read back: non-empty, valid
 * UTF-8 encoding Unicode scalar values only (no overlong forms, no
 * surrogates, nothing above U+10FFFF). */
int kf_name_valid(const char *name);
/* The same of the n bytes at text (no NUL among them; n may be 0). */
int kf_text_valid(const char *text, size_t n);

/* The character at `p` (`left` bytes, at least 1): returns its length in
 * bytes, and *shown is 1 when it prints as it is. A byte that starts no
 * valid UTF-8 sequence is one character, not shown; a C1 control is a
 * character of 2 bytes, not shown (each of its bytes is escaped). */
size_t kf_text_char(const unsigned char *p, size_t left, int *shown);

/* How a character is written: in a message, as it is unless it is not
 * shown; in a name, a backslash escaped too, and in a quoted one, the
 * quote. */
typedef enum kf_text_as { KF_TEXT_MESSAGE, KF_TEXT_NAME, KF_TEXT_QUOTED } kf_text_as;

/* The length of one escaped byte, "\xNN", and the most a character is
 * written in: 4 bytes, each escaped. */
#define KF_TEXT_ESCAPE_SIZE 4
#define KF_TEXT_SHOWN_MAX   (4 * KF_TEXT_ESCAPE_SIZE)

/* The character of `step` bytes at `p` (kf_text_char, which gave `shown`)
 * written `as`, into `out` (KF_TEXT_SHOWN_MAX bytes, no NUL); returns the
 * bytes written. */
size_t kf_text_shown(char *out, const unsigned char *p, size_t step, int shown, kf_text_as as);

/* The name `text` (`length` bytes, not necessarily NUL-terminated) into
 * `out` (`size` bytes, at least 8; NUL-terminated), between single quotes
 * when `quoted`; where it does not fit, cut between characters with "...".
 * Returns `out`. */
char *kf_text_name(char *out, size_t size, const char *text, size_t length, int quoted);

/* kf_text_name of the NUL-terminated `text`, quoted: a name in one of the
 * library's messages (kf_fail), which stays one line, leaves the terminal
 * as it was, and shows two names apart. */
#define KF_QUOTE_SIZE 64
const char *kf_quote(char *out, size_t size, const char *text);
/* kf_quote of a name into a buffer of its own, for a "%s" of kf_fail: the
 * compound literal lives until the end of the enclosing block. */
#define KF_QUOTED(text) kf_quote((char[KF_QUOTE_SIZE]){0}, KF_QUOTE_SIZE, (text))

#endif /* KF_TEXT_H */
