"""The terminal game: ``rummy500 play``, a Textual app around one :class:`TableSession`."""

from __future__ import annotations

from dataclasses import replace

from ..session.saves import SaveStore
from ..session.session import TableSession
from ..session.settings import SettingsError, TableSettings
from .screens import ResumeScreen
from .setup import SetupScreen
from .table import TableScreen
from .terminal import TerminalApp


class PlayApp(TerminalApp[TableSession | None]):
    """500 Rum at the terminal. The app's result is the session in play when it closed."""

    def __init__(
        self,
        settings: TableSettings,
        store: SaveStore | None = None,
        *,
        session: TableSession | None = None,
        saved: TableSession | None = None,
        setup: bool = False,
        delay: float = 0.6,
        light: bool = False,
    ) -> None:
        """Open on ``session``'s table; or ask whether to resume ``saved``; or the set-up.

        ``delay`` is the pause before each computer player's move, so people see it.
        """
        super().__init__(light=light)
        self.settings = settings
        self.store = store
        self.session = session
        self.saved = saved
        self.setup = setup
        self.delay = delay

    def on_mount(self) -> None:
        self.choose_theme()
        if self.session is not None and not self.setup:
            self.show_table(self.session)
        elif self.saved is not None and not self.setup:
            game = self.saved.game
            summary = (f"{game.players} players, {game.rules.preset}, deal {len(game.deals)}. "
                       + self.saved.standing())
            self.push_screen(ResumeScreen(summary), self.resume_chosen)
        else:
            self.open_setup(self.settings)

    def on_unmount(self) -> None:
        # Another game in this folder may start as soon as this one has closed.
        if self.store is not None:
            self.store.close()

    async def action_quit(self) -> None:
        """Ctrl+Q: close at once; a game in play is saved and the command says where."""
        if self.session is not None:
            self.session.save()
        self.exit(self.session)

    def resume_chosen(self, choice: str | None) -> None:
        if choice == "resume" and self.saved is not None:
            self.show_table(self.saved)
        elif choice == "new":
            self.start(self.settings)
        else:
            self.exit(None)

    def show_table(self, session: TableSession) -> None:
        self.session = session
        self.settings = session.settings
        table = TableScreen(session, self.delay)
        if isinstance(self.screen, TableScreen):
            self.switch_screen(table)
        else:
            self.push_screen(table)

    def start(self, settings: TableSettings) -> None:
        try:
            session = TableSession.new(settings, self.store)
        except SettingsError as error:
            self.notify(str(error), severity="error")
            self.open_setup(settings)
            return
        self.show_table(session)

    def play_again(self, settings: TableSettings) -> None:
        """Another game with the same set-up (and a new seed)."""
        self.start(replace(settings, seed=None))

    def open_setup(self, settings: TableSettings) -> None:
        self.push_screen(SetupScreen(replace(settings, seed=None),
                                     can_cancel=self.session is not None), self.setup_done)

    def setup_done(self, settings: TableSettings | None) -> None:
        if settings is not None:
            self.start(settings)
        elif self.session is None:
            self.exit(None)
