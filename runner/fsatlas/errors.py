"""The one error type a user can cause; the CLI prints it as a single line and exits 1."""
import unicodedata


def one_line(text: str) -> str:
    """text with every character that would end a line or move the terminal's cursor (C0 and
    C1 controls, DEL, the Unicode line and paragraph separators) shown as Python escapes it: a
    file name holding a newline or an ANSI sequence stays one line that names it (#65 round 55)."""
    return "".join(c.encode("unicode_escape").decode("ascii") if unicodedata.category(c) in ("Cc", "Zl", "Zp")
                   else c for c in str(text))


class UserError(Exception):
    """A problem with the user's input or machine, not a bug in fsatlas.

    `where` is the file or device, `field` the JSON Pointer or option, `expected` and
    `found` say what was wanted and what was there; any may be empty.
    """

    def __init__(self, message: str = "", *, where: str = "", field: str = "",
                 expected: str = "", found: str = "", listing: str = ""):
        self.where, self.field, self.expected, self.found = where, field, expected, found
        self.message, self.listing = message, listing
        super().__init__(str(self))

    @property
    def body(self) -> str:
        """What went wrong, without the file and field: one line (a message quotes the input, as
        fio's `"bw_bytes": "\n"`, round 58), and below it the lines of a listing (each problem a
        line of its own, or hugo's lines), where there is one."""
        body = one_line(self.message)
        if self.expected:
            body = (body + "; " if body else "") + f"expected {one_line(self.expected)}"
        if self.found:
            body = (body + ", " if body else "") + f"found {one_line(self.found)}"
        return body + "".join(f"\n{one_line(line)}" for line in self.listing.splitlines())

    def __str__(self) -> str:
        # each part one line; a listing below them (each Problem is one line)
        head = ": ".join(one_line(p) for p in (self.where, self.field) if p)
        return f"{head}: {self.body}" if head else self.body
