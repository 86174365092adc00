"""Schemathesis hooks for the reference server: DPoP-bound authentication.

Loaded by tools/schemathesis/run through SCHEMATHESIS_HOOKS. Every request
the fuzzer sends gets what a real client sends:

- `Authorization: DPoP <access token>` of a session this module logged in
  through `login` (refreshed through `refreshToken` before the access token
  runs out, logged in again when the session is gone), and
- a fresh `DPoP` proof made with the session's P-256 key for the request's
  own method and URL (`htm`, `htu`, `iat`, `jti`, `ath` over the token, and
  the latest `DPoP-Nonce` the server handed out).

The proof is made when the request is prepared (a `requests` auth object),
so `htu` is the URL actually sent. A case whose negative data is the `DPoP`
header itself keeps the header the fuzzer generated.

Three operations need other credentials: `getPushPreview` is called with the
preview token of a push registration of the session; `logout` ends a
session of its own, logged in for that case, so the shared session lives
on; `login` and `refreshToken` carry no access token and a proof without
`ath`.

Configuration comes from the environment, validated here:
SHAREKIT_SCHEMATHESIS_URL (the server's loopback origin),
SHAREKIT_SCHEMATHESIS_USER and SHAREKIT_SCHEMATHESIS_PASSWORD.
"""

from __future__ import annotations

import atexit
import base64
import sys
import hashlib
import json
import os
import re
import threading
import time
import urllib.parse
import uuid

import requests
import requests.auth
import schemathesis
from joserfc import jws
from joserfc.jwk import ECKey
from schemathesis.core.parameters import ParameterLocation


def _setting(name: str, pattern: str) -> str:
    value = os.environ.get(name, "")
    if not re.fullmatch(pattern, value):
        raise RuntimeError(f"{name} is missing or malformed")
    return value


BASE_URL = _setting("SHAREKIT_SCHEMATHESIS_URL", r"http://127\.0\.0\.1:[0-9]{1,5}")
if not 0 < int(BASE_URL.rsplit(":", 1)[1]) < 65536:
    raise RuntimeError("SHAREKIT_SCHEMATHESIS_URL has a port out of range")
USERNAME = _setting("SHAREKIT_SCHEMATHESIS_USER", r"[a-z][a-z0-9_-]{0,31}")
PASSWORD = _setting("SHAREKIT_SCHEMATHESIS_PASSWORD", r"[A-Za-z0-9_-]{16,128}")

# Refresh when less than this many seconds of the access token are left.
REFRESH_MARGIN_SECONDS = 20
# Every call this module makes itself (login, refresh, registration).
TIMEOUT_SECONDS = 10
# The longest long poll a positive listEvents case may ask for, in seconds
# (the server holds an unanswered poll that long; 0 answers at once).
MAX_EVENT_WAIT = 0


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


class Nonces:
    """The latest `DPoP-Nonce` the server handed out, from any response."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._nonce: str | None = None

    @property
    def current(self) -> str | None:
        with self._lock:
            return self._nonce

    def observe(self, response: requests.Response) -> None:
        nonce = response.headers.get("DPoP-Nonce")
        # A nonce is an opaque token; keep only what could be one.
        if nonce and len(nonce) <= 512 and re.fullmatch(r"[\x21-\x7e]+", nonce):
            with self._lock:
                self._nonce = nonce


NONCES = Nonces()


def make_proof(key: ECKey, method: str, url: str, token: str | None) -> str:
    """A DPoP proof (RFC 9449) for one request."""
    parts = urllib.parse.urlsplit(url)
    claims: dict[str, object] = {
        "jti": str(uuid.uuid4()),
        "htm": method.upper(),
        "htu": urllib.parse.urlunsplit((parts.scheme, parts.netloc, parts.path, "", "")),
        "iat": int(time.time()),
    }
    if token is not None:
        claims["ath"] = _b64url(hashlib.sha256(token.encode("ascii")).digest())
    nonce = NONCES.current
    if nonce is not None:
        claims["nonce"] = nonce
    header = {"typ": "dpop+jwt", "alg": "ES256", "jwk": key.as_dict(private=False)}
    payload = json.dumps(claims, separators=(",", ":")).encode("utf-8")
    return jws.serialize_compact(header, payload, key)


def _send(
    method: str, path: str, key: ECKey, token: str | None = None, body: object | None = None, token_endpoint=False
) -> requests.Response:
    """One call of this module's own, repeated once when the server asks for a nonce."""
    url = BASE_URL + path
    for _ in range(2):
        headers = {"DPoP": make_proof(key, method, url, token)}
        if token is not None:
            headers["Authorization"] = f"DPoP {token}"
        response = requests.request(method, url, headers=headers, json=body, timeout=TIMEOUT_SECONDS)
        NONCES.observe(response)
        if not _asks_for_nonce(response, token_endpoint):
            return response
    return response


def _asks_for_nonce(response: requests.Response, token_endpoint: bool) -> bool:
    if token_endpoint:
        if response.status_code != 400:
            return False
        try:
            return response.json().get("error") == "use_dpop_nonce"
        except ValueError:
            return False
    return response.status_code == 401 and "use_dpop_nonce" in response.headers.get("WWW-Authenticate", "")


def _json_object(response: requests.Response, status: int, what: str) -> dict:
    if response.status_code != status:
        raise RuntimeError(f"{what} answered {response.status_code}: {response.text[:300]}")
    value = response.json()
    if not isinstance(value, dict):
        raise RuntimeError(f"{what} answered a body that is not an object")
    return value


def _token(value: object, what: str) -> str:
    if not isinstance(value, str) or not re.fullmatch(r"[A-Za-z0-9_.~+/=-]{16,512}", value):
        raise RuntimeError(f"{what} is not a token")
    return value


class Session:
    """A session of the fuzzer's user: its key and its current token pair."""

    def __init__(self) -> None:
        self.key = ECKey.generate_key("P-256")
        pair = _json_object(
            _send(
                "POST",
                "/api/v1/auth/login",
                self.key,
                body={"username": USERNAME, "password": PASSWORD},
                token_endpoint=True,
            ),
            201,
            "login",
        )
        self._take(pair)

    def _take(self, pair: dict) -> None:
        self.access_token = _token(pair.get("access_token"), "access_token")
        self.refresh_token = _token(pair.get("refresh_token"), "refresh_token")
        expires_in = pair.get("expires_in")
        if not isinstance(expires_in, int) or not 1 <= expires_in <= 86_400:
            raise RuntimeError("expires_in is not a whole number of seconds from 1 to 86400")
        self.expires_at = time.monotonic() + expires_in

    @property
    def fresh(self) -> bool:
        return time.monotonic() < self.expires_at - REFRESH_MARGIN_SECONDS

    def refresh(self) -> bool:
        """Rotates the refresh token; False when the session cannot be refreshed."""
        response = _send(
            "POST",
            "/api/v1/auth/refresh",
            self.key,
            body={"refresh_token": self.refresh_token},
            token_endpoint=True,
        )
        if response.status_code != 200:
            return False
        self._take(_json_object(response, 200, "refresh"))
        return True

    def preview_token(self) -> str:
        created = _json_object(
            _send(
                "POST",
                "/api/v1/push/registrations",
                self.key,
                token=self.access_token,
                body={"provider": "test", "token": str(uuid.uuid4()), "environment": "sandbox", "app_id": "fuzz"},
            ),
            201,
            "registerPush",
        )
        return _token(created.get("preview_token"), "preview_token")


class Sessions:
    """The shared session every case uses, kept fresh."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._session: Session | None = None
        self._preview: tuple[Session, str] | None = None
        self.logins = 0
        self.refreshes = 0

    def current(self) -> Session:
        with self._lock:
            session = self._session
            if session is not None and not session.fresh:
                if session.refresh():
                    self.refreshes += 1
                else:
                    session = None
            if session is None:
                session = Session()
                self.logins += 1
            self._session = session
            return session

    def preview(self) -> tuple[Session, str]:
        session = self.current()
        with self._lock:
            if self._preview is None or self._preview[0] is not session:
                self._preview = (session, session.preview_token())
            return self._preview

    def forget(self, session: Session) -> None:
        """Called when a response says the session is gone (revoked elsewhere)."""
        with self._lock:
            if self._session is session:
                self._session = None
                self._preview = None


SESSIONS = Sessions()


@atexit.register
def _report() -> None:
    sys.stderr.write(
        f"schemathesis hooks: {SESSIONS.logins} logins of the shared session, {SESSIONS.refreshes} refreshes\n"
    )


class DPoPRequestAuth(requests.auth.AuthBase):
    """Adds `Authorization` and a proof for the URL the request goes to."""

    def __init__(self, session: Session | None, token: str | None, key: ECKey, proof: bool) -> None:
        self.session = session
        self.token = token
        self.key = key
        self.proof = proof

    def __call__(self, request: requests.PreparedRequest) -> requests.PreparedRequest:
        if self.token is not None:
            request.headers["Authorization"] = f"DPoP {self.token}"
        if self.proof:
            request.headers["DPoP"] = make_proof(self.key, request.method or "GET", request.url or "", self.token)
        request.register_hook("response", self._observe)
        return request

    def _observe(self, response: requests.Response, *args, **kwargs) -> requests.Response:
        NONCES.observe(response)
        if response.status_code == 401 and self.session is not None:
            try:
                code = response.json().get("code")
            except ValueError:
                code = None
            if code in ("session_revoked", "invalid_token", "token_expired"):
                SESSIONS.forget(self.session)
        return response


# The shape the document gives the DPoP header (parameter DPoPProof).
PROOF_SHAPE = re.compile(r"[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+")


def _proof_is_negative_data(case) -> bool:
    """Whether the generated DPoP header is this case's negative data: left out,
    repeated or not of the document's shape. A well-shaped one is replaced by
    a real proof, which changes nothing the document says about the case."""
    meta = case.meta
    if meta is None or not meta.generation.mode.is_negative:
        return False
    component = meta.components.get(ParameterLocation.HEADER)
    if component is None or not component.mode.is_negative:
        return False
    values = [value for name, value in case.headers.items() if name.lower() == "dpop"]
    return not (len(values) == 1 and isinstance(values[0], str) and PROOF_SHAPE.fullmatch(values[0]))


@schemathesis.auth(refresh_interval=None)
class DPoPAuth:
    """Credentials per case (the sessions above cache and refresh them)."""

    def get(self, case, context):
        operation = case.operation.definition.raw.get("operationId")
        if operation == "getPushPreview":
            session, preview = SESSIONS.preview()
            return (None, preview, session.key)
        if operation == "logout":
            # A session of its own: logging it out leaves the shared one alone.
            own = Session()
            return (None, own.access_token, own.key)
        if operation in ("login", "refreshToken", "getHealth"):
            return (None, None, ECKey.generate_key("P-256") if operation == "login" else SESSIONS.current().key)
        session = SESSIONS.current()
        return (session, session.access_token, session.key)

    def set(self, case, data, context):
        session, token, key = data
        if case.headers is None:
            case.headers = {}
        # A proof that is the case's negative data reaches the server as generated.
        keep_generated = _proof_is_negative_data(case)
        if not keep_generated:
            for name in [name for name in case.headers if name.lower() == "dpop"]:
                del case.headers[name]
            # What the case records; the request gets a proof for the URL it is sent to.
            case.headers["DPoP"] = make_proof(key, case.method, BASE_URL + case.formatted_path, token)
        if token is not None:
            for name in [name for name in case.headers if name.lower() == "authorization"]:
                del case.headers[name]
            case.headers["Authorization"] = f"DPoP {token}"
        case._auth = DPoPRequestAuth(session, token, key, proof=not keep_generated)


@schemathesis.hook
def before_call(context, case, kwargs):
    """Keeps listEvents cases from holding a long poll open.

    A `wait` the server takes (a whole number up to 999999999) becomes 0, so
    an answer comes at once; any other value stays, as the negative data it is.
    """
    if case.operation.definition.raw.get("operationId") != "listEvents" or not case.query:
        return
    wait = case.query.get("wait")
    if isinstance(wait, int) and not isinstance(wait, bool) and MAX_EVENT_WAIT < wait <= 999_999_999:
        case.query["wait"] = MAX_EVENT_WAIT
    elif isinstance(wait, str) and re.fullmatch(r"[0-9]{1,9}", wait) and int(wait) > MAX_EVENT_WAIT:
        # A string the server reads as a number all the same.
        case.query["wait"] = str(MAX_EVENT_WAIT)


# The 422 codes of the message operations that depend on the server's state
# rather than on the request (schemathesis.toml lets these operations answer
# 422 to a valid request; this check holds them to these codes).
_MESSAGE_STATE = {422: {"client_msg_id_conflict", "invalid_attachment", "too_many_attachments"}}
STATE_DEPENDENT_REFUSALS = {
    # A client_msg_id used before for another message, an upload not
    # completed yet, more attachments than the instance's limit.
    "createMessage": _MESSAGE_STATE,
    "createChannelMessage": _MESSAGE_STATE,
    # ... and a chat channel, where posts cannot be started.
    "createThread": {422: _MESSAGE_STATE[422] | {"not_a_forum"}},
    # A part number past the upload's parts_count, a body or Content-Length
    # that is not that part's size, a body that does not match its digest.
    "uploadPart": {400: {"invalid_part", "wrong_part_size"}, 422: {"digest_mismatch"}},
    # The bytes of the user's unfinished uploads (created by earlier cases)
    # over upload_pending_bytes_per_user; a composite digest cut at another
    # part size than the instance's upload_part_size (a setting the document
    # cannot know; the digest's own form is the pattern's).
    "createUpload": {400: {"invalid_digest"}, 429: {"upload_quota_exceeded"}},
}


@schemathesis.check
def state_dependent_refusal(ctx, response, case):
    """A schema-valid request refused with a status schemathesis.toml lets
    through for its operation names a code that depends on the server's state."""
    meta = case.meta
    if meta is None or not meta.generation.mode.is_positive:
        return None
    allowed = STATE_DEPENDENT_REFUSALS.get(case.operation.definition.raw.get("operationId"), {})
    if response.status_code not in allowed:
        return None
    try:
        code = response.json().get("code")
    except (ValueError, AttributeError):
        code = None
    if code not in allowed[response.status_code]:
        raise AssertionError(
            f"A schema-valid request was refused with {response.status_code} {code!r}, "
            "a code that does not depend on the server's state"
        )
    return None
