"""`AnsiCodes`: the escape sequences Webots' console understands."""

from __future__ import annotations


class AnsiCodes:
    """Text attributes and colours (the app's console shows them as plain text)."""

    RESET = "\u001b[0m"
    BOLD = "\u001b[1m"
    UNDERLINE = "\u001b[4m"
    BLACK_BACKGROUND = "\u001b[40m"
    RED_BACKGROUND = "\u001b[41m"
    GREEN_BACKGROUND = "\u001b[42m"
    YELLOW_BACKGROUND = "\u001b[43m"
    BLUE_BACKGROUND = "\u001b[44m"
    MAGENTA_BACKGROUND = "\u001b[45m"
    CYAN_BACKGROUND = "\u001b[46m"
    WHITE_BACKGROUND = "\u001b[47m"
    BLACK_FOREGROUND = "\u001b[30m"
    RED_FOREGROUND = "\u001b[31m"
    GREEN_FOREGROUND = "\u001b[32m"
    YELLOW_FOREGROUND = "\u001b[33m"
    BLUE_FOREGROUND = "\u001b[34m"
    MAGENTA_FOREGROUND = "\u001b[35m"
    CYAN_FOREGROUND = "\u001b[36m"
    WHITE_FOREGROUND = "\u001b[37m"
    CLEAR_SCREEN = "\u001b[2J"
