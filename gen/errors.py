"""The one exception type the command line turns into a one-line error."""


class GenError(Exception):
    """A problem with the user's input or a refusal to emit a kernel.

    The message names what is wrong (for a config: the key) in one line.
    """
