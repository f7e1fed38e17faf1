"""One writer thread that applies every queued post, across campaigns, in one transaction per round (group commit).

A burst of posts from many campaigns used to be as many threads, each taking SQLite's write lock in turn: the
losers slept in SQLite's busy handler (1, 2, 5, 10 ... 100 ms) while the lock was free again, and every post paid a
transaction of its own (~0.5 ms of SQLAlchemy before any work). Here the posts waiting when the writer comes round
are applied together by ``Legatus.post_many``: in their order of arrival (so a campaign's posts keep theirs), each
in its own SAVEPOINT (a post that fails is rolled back alone), under one commit. A post arriving while a round is
being written waits for the next round: with a quiet bot a round is one post, and nothing waits for a timer.

Other writes of the process that must not contend with the posts for the lock (a campaign created from Discord)
go through the same thread with ``call``. Small bookkeeping writes that come one per post (a heads-up claimed,
then marked sent) go with ``call_many``: all those waiting when the writer comes round are written by one call of
their function, in one transaction, after the round's posts; as single calls they each cost a transaction and cut
a burst's posts into small rounds.
"""
from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future, InvalidStateError
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from bot.service.draw_rulings import needs_asking, with_sources_asked
from bot.service.legatus import Legatus, PostRequest
from bot.service.replies import Reply

if TYPE_CHECKING:
    from bot.store.read_marks import Seen

log = logging.getLogger("legatus.posts")

T = TypeVar("T")
# The most posts in one transaction: a round of a few hundred posts is written in well under a second, and a
# post that arrives meanwhile never waits behind more than one such round.
MAX_ROUND = 256


class QueueClosed(RuntimeError):
    """The bot is stopping: its writer takes nothing more."""


@dataclass(frozen=True)
class _Many:
    function: Callable[[list[Any]], list[Any]]
    item: Any


class PostQueue:
    def __init__(self, service: Legatus, max_round: int = MAX_ROUND) -> None:
        self.service = service
        self.max_round = max_round
        self._queue: queue.SimpleQueue[tuple[Any, Future[Any]] | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self._closed = False
        self.rounds = 0  # transactions written, for benchmarks and tests
        self.largest = 0  # the most posts one of them held

    def submit(self, author: str, text: str, campaign: str | None = None, *, is_gm: bool | None = None,
               sealed_refused: str | None = None, seen: Seen | None = None) -> Future[Reply]:
        """Queue a post; the future gets its reply once it is committed (or refused, or failed alone). ``seen``:
        the message it came as, marked read with it."""
        request = PostRequest(author, text, campaign, is_gm, sealed_refused, seen=seen)
        if needs_asking(request):
            return self._ask_then_put(request)
        return self._put(request)

    def _ask_then_put(self, request: PostRequest) -> Future[Reply]:
        """A GM's ruling on a draw asks the lottery sources first (bot/service/draw_rulings.py), on a thread of its
        own: neither the caller (the bot's event loop) nor the writer, whose round holds every campaign's posts,
        waits on the network. The post is queued once they answered, after any post that came meanwhile."""
        outer: Future[Reply] = Future()

        def relay(inner: Future[Any]) -> None:
            error = inner.exception()
            _settle(outer, exception=error) if error is not None else _settle(outer, inner.result())

        def work() -> None:
            try:
                self._put(with_sources_asked(request, self.service.ask_lottery_sources)).add_done_callback(relay)
            except BaseException as exc:  # QueueClosed, or a bug: the caller is told, never left waiting
                _settle(outer, exception=exc)

        with self._lock:
            if self._closed:
                raise QueueClosed("the post queue is closed")
        threading.Thread(target=work, name="legatus-ask-sources", daemon=True).start()
        return outer

    def call(self, function: Callable[..., T], *args: Any, **kwargs: Any) -> Future[T]:
        """Run ``function`` on the writer thread, between two rounds of posts."""
        return self._put(lambda: function(*args, **kwargs))

    def call_many(self, function: Callable[[list[Any]], list[T]], item: Any) -> Future[T]:
        """Queue ``item`` for ``function``, which the writer calls once with every item queued for it by then (in
        their order, after the round's posts) and which returns one result per item. ``function`` must be the same
        object each time (a module-level function, or one kept by its caller) for items to share a call, and its
        items must not depend on the posts of the same round."""
        return self._put(_Many(function, item))

    def _put(self, item: Any) -> Future[Any]:
        future: Future[Any] = Future()
        with self._lock:
            if self._closed:
                raise QueueClosed("the post queue is closed")
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="legatus-posts", daemon=True)
                self._thread.start()
            self._queue.put((item, future))
        return future

    def close(self, timeout: float | None = 10.0) -> None:
        """Apply what is queued, then stop the thread."""
        with self._lock:
            self._closed = True
            thread = self._thread
            if thread is not None:
                self._queue.put(None)
        if thread is not None:
            thread.join(timeout)

    def _run(self) -> None:
        while True:
            first = self._queue.get()
            if first is None:
                return
            items = [first]
            stop = False
            while len(items) < self.max_round:
                try:
                    item = self._queue.get_nowait()
                except queue.Empty:
                    break
                if item is None:
                    stop = True
                    break
                items.append(item)
            self._write(items)
            if stop:
                return

    def _write(self, items: list[tuple[Any, Future[Any]]]) -> None:
        """Posts in arrival order, one ``post_many`` per run of posts; a call ends a run and runs alone; the items of
        ``call_many`` after all that, one call per function."""
        run: list[tuple[PostRequest, Future[Any]]] = []
        many: dict[Callable[[list[Any]], list[Any]], list[tuple[Any, Future[Any]]]] = {}
        for item, future in items:
            if isinstance(item, PostRequest):
                run.append((item, future))
                continue
            if isinstance(item, _Many):
                many.setdefault(item.function, []).append((item.item, future))
                continue
            self._post(run)
            run = []
            try:
                result = item()
            except BaseException as exc:  # the caller gets the error, the writer goes on
                _settle(future, exception=exc)
            else:
                _settle(future, result)
        self._post(run)
        for function, waiting in many.items():
            try:
                results = function([item for item, _ in waiting])
                if len(results) != len(waiting):
                    raise RuntimeError(f"{function!r} gave {len(results)} results for {len(waiting)} items")
            except BaseException as exc:
                for _, future in waiting:
                    _settle(future, exception=exc)
                continue
            for (_, future), result in zip(waiting, results):
                _settle(future, result)

    def _post(self, run: list[tuple[PostRequest, Future[Any]]]) -> None:
        if not run:
            return
        self.rounds += 1
        self.largest = max(self.largest, len(run))
        try:
            replies = self.service.post_many([request for request, _ in run])
        except BaseException as exc:  # post_many answers every post itself; this is a bug, told to every waiter
            log.exception("a round of %d posts failed", len(run))
            for _, future in run:
                _settle(future, exception=exc)
            return
        for (_, future), reply in zip(run, replies):
            _settle(future, reply)


def _settle(future: Future[Any], result: Any = None, exception: BaseException | None = None) -> None:
    """Give the waiter its answer, unless it stopped waiting (the post itself is applied all the same: it was
    sent)."""
    try:
        if exception is not None:
            future.set_exception(exception)
        else:
            future.set_result(result)
    except InvalidStateError:
        pass
