"""apscheduler's SQLAlchemy job store with every row signed: a job row is a pickle, and a job names the function it
runs by a "module:function" text, so a row written by anyone but the bot (in the database, or in a backup restored)
would run whatever its author chose when the scheduler starts. Here each row's body is HMAC-SHA256 of the pickle
under a key outside the database (``bot/store/rest_key.py``) followed by the pickle, and the tag is checked before
anything is unpickled; a row without a good tag is dropped (apscheduler's own handling of a job it cannot restore),
and the jobs the bot needs are rebuilt by ``reconcile`` at every start (bot/schedule/scheduler/).
"""
from __future__ import annotations

import hashlib
import hmac
import logging
import pickle
import secrets
from typing import Any

from apscheduler.jobstores.base import ConflictingIdError, JobLookupError
from apscheduler.jobstores.sqlalchemy import SQLAlchemyJobStore
from apscheduler.util import datetime_to_utc_timestamp
from sqlalchemy.exc import IntegrityError

from bot.store.rest_key import NoRestKey, rest_keys

log = logging.getLogger("legatus.scheduler")
_LABEL = b"legatus/apscheduler-job/hmac-sha256/v1"
_TAG = 32


class UnsignedJob(ValueError):
    """A job row this bot did not write: never unpickled."""


def _keys() -> list[bytes]:
    try:
        return [hmac.new(key, _LABEL, hashlib.sha256).digest() for key in rest_keys()]
    except NoRestKey as exc:
        # Not a reason to stop the bot: the jobs of this process are signed with a key of its own, and a restart
        # drops them and rebuilds them from the tables, as it does a job it cannot trust.
        log.error("the scheduler's jobs are signed with a key of this process only: %s", exc)
        if not _process_key:
            _process_key.append(secrets.token_bytes(32))
        return list(_process_key)


_process_key: list[bytes] = []


class SignedJobStore(SQLAlchemyJobStore):
    def _body(self, job: Any) -> bytes:
        state = pickle.dumps(job.__getstate__(), self.pickle_protocol)
        return hmac.new(_keys()[0], state, hashlib.sha256).digest() + state

    def add_job(self, job: Any) -> None:
        insert = self.jobs_t.insert().values(id=job.id, next_run_time=datetime_to_utc_timestamp(job.next_run_time),
                                             job_state=self._body(job))
        with self.engine.begin() as connection:
            try:
                connection.execute(insert)
            except IntegrityError:
                raise ConflictingIdError(job.id) from None

    def update_job(self, job: Any) -> None:
        update = (self.jobs_t.update()
                  .values(next_run_time=datetime_to_utc_timestamp(job.next_run_time), job_state=self._body(job))
                  .where(self.jobs_t.c.id == job.id))
        with self.engine.begin() as connection:
            if connection.execute(update).rowcount == 0:
                raise JobLookupError(job.id)

    def lookup_job(self, job_id: str) -> Any:
        try:
            return super().lookup_job(job_id)
        except UnsignedJob:
            log.warning("the job %s in the database is not signed by this bot: ignored", job_id)
            return None

    def _reconstitute_job(self, job_state: bytes) -> Any:
        body = bytes(job_state)
        tag, state = body[:_TAG], body[_TAG:]
        if not any(hmac.compare_digest(tag, hmac.new(key, state, hashlib.sha256).digest()) for key in _keys()):
            raise UnsignedJob("a job row this bot did not sign")
        return super()._reconstitute_job(state)
