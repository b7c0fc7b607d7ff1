"""The one error type a user can cause; the CLI prints it as a single line and exits 1."""


class UserError(Exception):
    """A problem with the user's input or machine, not a bug in fsatlas.

    `where` is the file or device, `field` the JSON Pointer or option, `expected` and
    `found` say what was wanted and what was there; any may be empty.
    """

    def __init__(self, message: str = "", *, where: str = "", field: str = "",
                 expected: str = "", found: str = ""):
        self.where, self.field, self.expected, self.found = where, field, expected, found
        self.message = message
        super().__init__(str(self))

    @property
    def body(self) -> str:
        """What went wrong, without the file and field."""
        body = self.message
        if self.expected:
            body = (body + "; " if body else "") + f"expected {self.expected}"
        if self.found:
            body = (body + ", " if body else "") + f"found {self.found}"
        return body

    def __str__(self) -> str:
        head = ": ".join(p for p in (self.where, self.field) if p)
        return f"{head}: {self.body}" if head else self.body
