"""A policy played by a language model behind any OpenAI-compatible chat-completions server.

Spec (:mod:`card_envs.bots.specs`): ``llm:<base_url>:<model>``, e.g.
``llm:http://localhost:8000/v1:Qwen/Qwen2.5-7B-Instruct`` (vLLM),
``llm:http://localhost:8080/v1:local`` (llama.cpp ``llama-server``),
``llm:http://localhost:11434/v1:qwen2.5:7b`` (Ollama; the model name may hold ``:``). The base
URL is ``http://`` or ``https://``, a host, an optional numeric port and an optional path
without ``:``; everything after the next ``:`` is the model. Needs the ``llm`` extra
(``pip install "card-envs[llm]"``: httpx). ``docs/language_agents.md`` shows each server.

What the model receives: only the seat's text view (:mod:`card_envs.core.text`): a system
message (the game, the seat, the rules in brief, the reply format) and, per decision, one user
message: the seat's view, the moves since its last decision as it saw them (heard through
``observe_move``, :mod:`card_envs.bots.base`), and its legal moves numbered with their names.
Each decision is a fresh conversation (no history beyond the moves-since section), so the
context stays small on long games.

==========================  ===================================================================
the request                 ``POST {base_url}/chat/completions`` with ``model``, ``messages``,
                            ``temperature`` (default 0), ``max_tokens`` (default 1024), ``seed``
                            (from the policy's seeded RNG); header ``Authorization: Bearer
                            $CARD_ENVS_LLM_API_KEY`` when that variable is set (none otherwise:
                            local servers need none)
a reply                     read leniently (:meth:`card_envs.core.text.MoveList.find`: a
                            ``<think>`` block dropped, the last line naming a move, ``move:``
                            labels)
junk or an illegal move     the model is told the problem in the same conversation and asked
                            again, up to ``max_invalid`` (2) times; then a uniformly random legal
                            move (seeded) is played: ``stats["fallback_moves"]`` counts them and
                            a warning is logged (logger ``card_envs.bots.llm``)
timeout, connection error,  retried ``retries`` (2) times, waiting ``backoff·2^k`` s (0.5, 1);
HTTP 408/429/5xx, a         then ``on_error``: ``"raise"`` (default) raises :class:`LLMError`
response without a reply    (``card-envs evaluate`` stops with that one line; a tournament
                            counts the game as forfeited by the policy and goes on);
                            ``"random_legal"`` plays a random legal move (counted in
                            ``stats["fallback_moves"]``)
another HTTP error (400,    :class:`LLMError` at once, with the server's message (a wrong model
401, 404...)                name, a missing key): retrying would not help
==========================  ===================================================================

Time limit per request: ``timeout`` seconds (default 120; the environment variable
``CARD_ENVS_LLM_TIMEOUT`` sets it for specs). ``stats`` counts ``requests``, ``retries``,
``invalid_replies`` and ``fallback_moves``; ``transcript`` holds the current game's exchanges
(:class:`~card_envs.core.records.TranscriptTurn`).

Why httpx and not the ``openai`` package: one POST is all the policy needs; httpx gives
separate connect and read timeouts and no retry logic of its own (the policy's retries are the
only ones, so they are as documented), it is small (the ``openai`` package adds pydantic models
of the whole OpenAI API and its own retry loop), and it reads the plain JSON that local servers
return even where they stray from OpenAI's schema.
"""

from __future__ import annotations

import logging
import os
import random
import re
import time
from typing import Any

from card_envs.core.errors import CardEnvsError, ConfigError
from card_envs.core.extras import require_extra
from card_envs.core.records import TranscriptTurn
from card_envs.core.text import InvalidReply, MoveList, MoveLog, observation_text, rules_brief

#: the policy spec prefix
PREFIX = "llm:"
#: the environment variable holding the API key (sent as ``Authorization: Bearer ...``)
API_KEY_ENV = "CARD_ENVS_LLM_API_KEY"
#: the environment variable setting the request timeout in seconds (for specs)
TIMEOUT_ENV = "CARD_ENVS_LLM_TIMEOUT"
DEFAULT_TIMEOUT = 120.0
#: the ``on_error`` choices, the default first
ON_ERROR = ("raise", "random_legal")
#: HTTP statuses worth retrying (the others are answered at once with LLMError)
RETRY_STATUSES = frozenset({408, 409, 425, 429, 500, 502, 503, 504})

#: scheme, host (or [IPv6]), a port whenever digits follow the host's ":" up to "/", ":" or the
#: end (possessive: never read as the model), a path without ":", then ":" and the model
_SPEC = re.compile(r"(https?://(?:\[[^\]/]*\]|[^/:\[\]]+)(?::\d+(?=[/:]|$))?+(?:/[^:]*)?):(.+)",
                   re.S)

log = logging.getLogger(__name__)

SYSTEM_PROMPT = """You are playing the card game {game} as seat {seat} ({players} seats: 0 to {last}).

Rules in brief:
{rules}

At each decision you get your view of the table (only what your seat may know), the moves since \
your last decision, and your legal moves, numbered, each with its name. Reply with exactly one \
legal move: its number or its name, and nothing else."""


class LLMError(CardEnvsError, RuntimeError):
    """The chat-completions server failed (after the retries, or at once for a request error);
    the message names the URL, the model and the failure, never the API key."""


def parse_spec(spec: str) -> tuple[str, str]:
    """``(base_url, model)`` of an ``llm:<base_url>:<model>`` spec (module docstring).

    Raises:
        ConfigError: naming the spec and the expected form.
    """
    rest = spec[len(PREFIX):] if spec.startswith(PREFIX) else spec
    match = _SPEC.fullmatch(rest.strip())
    if not match or not match.group(2).strip():
        shown = spec if len(spec) <= 100 else spec[:97] + "..."
        raise ConfigError(f"policy {shown!r}: expected 'llm:<base_url>:<model>' with an http(s) "
                          "base URL, e.g. 'llm:http://localhost:8000/v1:my-model'")
    return match.group(1).rstrip("/"), match.group(2).strip()


def _timeout_from_env() -> float:
    text = os.environ.get(TIMEOUT_ENV)
    if text is None or not text.strip():
        return DEFAULT_TIMEOUT
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not value > 0 or value == float("inf"):
        raise ConfigError(f"environment variable {TIMEOUT_ENV}={text!r}: expected a number of "
                          "seconds > 0")
    return value


class LLMPolicy:
    """Plays through a chat-completions server (module docstring: what is sent, how failures
    are handled).

    Args:
        base_url: the server's OpenAI-compatible base URL (``http://localhost:8000/v1``).
        model: the model name the server knows.
        api_key: sent as a bearer token; default the ``CARD_ENVS_LLM_API_KEY`` variable (none
            when unset).
        timeout: seconds per request (> 0; default ``CARD_ENVS_LLM_TIMEOUT`` or 120).
        retries: extra attempts of a failed request (>= 0, default 2).
        backoff: the first wait before a retry, in seconds, doubled each time (default 0.5).
        max_invalid: how often an invalid reply is answered with its problem before the random
            fallback (>= 0, default 2).
        on_error: ``"raise"`` (default) or ``"random_legal"`` once a request failed for good.
        temperature: sampling temperature (default 0; ``None``: not sent).
        max_tokens: reply length cap (default 1024; ``None``: not sent).
        list_moves: list the legal moves in the prompt (default ``True``).
        seed: seed of the policy's RNG (request seeds, random fallbacks).
        name: the policy's name (default ``llm:<base_url>:<model>``).

    Raises:
        MissingExtraError: httpx is not installed (the ``llm`` extra).
        ConfigError: a bad option (named).
    """

    def __init__(self, base_url: str, model: str, *, api_key: str | None = None,
                 timeout: float | None = None, retries: int = 2, backoff: float = 0.5,
                 max_invalid: int = 2, on_error: str = "raise",
                 temperature: float | None = 0.0, max_tokens: int | None = 1024,
                 list_moves: bool = True, seed: int | None = None, name: str | None = None):
        require_extra("llm", "the llm: policy", ("httpx",))
        if on_error not in ON_ERROR:
            raise ConfigError(f"on_error must be one of {list(ON_ERROR)}, got {on_error!r}")
        for field, value in (("retries", retries), ("max_invalid", max_invalid)):
            if value.__class__ is not int or value < 0:
                raise ConfigError(f"{field} must be an int >= 0, got {value!r}")
        self.timeout = _timeout_from_env() if timeout is None else float(timeout)
        if not self.timeout > 0:
            raise ConfigError(f"timeout must be > 0 seconds, got {timeout!r}")
        self.url = base_url.rstrip("/") + "/chat/completions"
        self.model = model
        self.name = name or f"{PREFIX}{base_url}:{model}"
        self._api_key = api_key if api_key is not None else os.environ.get(API_KEY_ENV) or None
        self.retries, self.backoff, self.max_invalid = retries, float(backoff), max_invalid
        self.on_error = on_error
        self.temperature, self.max_tokens = temperature, max_tokens
        self.list_moves = list_moves
        self.rng = random.Random(seed)
        self.stats = {"requests": 0, "retries": 0, "invalid_replies": 0, "fallback_moves": 0}
        self.transcript: list[TranscriptTurn] = []
        self._client = None
        self._state = None
        self._log: MoveLog | None = None

    # -- the policy interface --------------------------------------------------------------------
    def reseed(self, seed: int) -> None:
        """Restart the RNG (request seeds, fallbacks) and forget the game being followed."""
        self.rng = random.Random(seed)
        self._state = None

    def observe_move(self, game, state, action: int, player: int) -> None:
        """Hear a move before it is applied (kept as each seat sees it)."""
        self._follow(game, state).record(state, action)

    def act(self, game, state, player: int) -> int:
        """Ask the model for seat ``player``'s move in ``state`` (module docstring)."""
        moves = MoveList(game, state)
        seen = self._follow(game, state).since(player)
        prompt = observation_text(game, state, player, seen, list_moves=self.list_moves,
                                  move_list=moves)
        messages = [{"role": "system", "content": self.system_prompt(game, player)},
                    {"role": "user", "content": prompt}]
        for attempt in range(self.max_invalid + 1):
            reply = self._complete(messages)
            if reply is None:  # the request failed for good and on_error="random_legal"
                break
            try:
                action = moves.find(reply)
            except InvalidReply as exc:
                self.stats["invalid_replies"] += 1
                self.transcript.append(TranscriptTurn(seat=player, observation=prompt,
                                                      reply=reply, problem=str(exc)))
                left = self.max_invalid - attempt
                if left:
                    messages += [{"role": "assistant", "content": reply},
                                 {"role": "user", "content":
                                  f"That reply was not played: {exc}. Reply with exactly one "
                                  f"of the listed moves ({left} more tr{'y' if left == 1 else 'ies'})."}]
                continue
            self.transcript.append(TranscriptTurn(seat=player, observation=prompt, reply=reply,
                                                  action=action))
            return action
        legal = game.legal_actions(state)
        action = legal[self.rng.randrange(len(legal))]
        self.stats["fallback_moves"] += 1
        log.warning("%s: seat %d plays a random legal move (%s): no valid reply", self.name,
                    player, game.action_to_string(state, action))
        return action

    def system_prompt(self, game, player: int) -> str:
        """The system message: the game, the seat, the rules in brief, the reply format."""
        n = game.num_players
        return SYSTEM_PROMPT.format(game=game.name, seat=player, players=n, last=n - 1,
                                    rules=rules_brief(game))

    def close(self) -> None:
        """Close the HTTP connection pool (a new one opens at the next request)."""
        if self._client is not None:
            self._client.close()
            self._client = None

    def __getstate__(self) -> dict[str, Any]:  # the HTTP client is not copied or pickled
        out = dict(self.__dict__)
        out["_client"] = None
        return out

    # -- internals -------------------------------------------------------------------------------
    def _follow(self, game, state) -> MoveLog:
        """The move log of the game ``state`` belongs to (a new state object: a new game)."""
        if state is not self._state or self._log is None or self._log.game is not game:
            self._state, self._log = state, MoveLog(game)
            self.transcript = []
        return self._log

    def _complete(self, messages: list[dict]) -> str | None:
        """The model's reply text; ``None`` when the request failed for good and ``on_error`` is
        ``"random_legal"``.

        Raises:
            LLMError: a request error, or failures after the retries with ``on_error="raise"``.
        """
        import httpx

        if self._client is None:
            self._client = httpx.Client(timeout=httpx.Timeout(self.timeout,
                                                              connect=min(self.timeout, 10.0)))
        payload: dict[str, Any] = {"model": self.model, "messages": messages,
                                   "seed": self.rng.getrandbits(31)}
        if self.temperature is not None:
            payload["temperature"] = self.temperature
        if self.max_tokens is not None:
            payload["max_tokens"] = self.max_tokens
        headers = {"Authorization": f"Bearer {self._api_key}"} if self._api_key else {}
        failure = ""
        for attempt in range(self.retries + 1):
            if attempt:
                self.stats["retries"] += 1
                time.sleep(self.backoff * 2 ** (attempt - 1))
            self.stats["requests"] += 1
            try:
                response = self._client.post(self.url, json=payload, headers=headers)
            except httpx.TimeoutException:
                failure = f"no answer within {self.timeout:g} s (timeout)"
                continue
            except httpx.HTTPError as exc:
                failure = f"{type(exc).__name__}: {exc}"
                continue
            if response.status_code != 200:
                failure = f"HTTP {response.status_code}: {_server_message(response)}"
                if response.status_code in RETRY_STATUSES:
                    continue
                raise LLMError(f"{self.name}: POST {self.url} was refused: {failure}")
            try:
                content = response.json()["choices"][0]["message"]["content"]
            except (ValueError, KeyError, IndexError, TypeError):
                failure = f"the answer is not a chat completion: {response.text[:120]!r}"
                continue
            return content if isinstance(content, str) else ""
        if self.on_error == "random_legal":
            log.warning("%s: POST %s failed %d times (%s)", self.name, self.url,
                        self.retries + 1, failure)
            return None
        raise LLMError(f"{self.name}: POST {self.url} failed {self.retries + 1} time"
                       f"{'s' if self.retries else ''}: {failure}")


def _server_message(response) -> str:
    """The error message of a server's JSON error body, else the start of its text."""
    try:
        body = response.json()
        error = body.get("error", body) if isinstance(body, dict) else body
        message = error.get("message") if isinstance(error, dict) else error
        text = str(message)
    except ValueError:
        text = response.text
    text = " ".join(text.split())
    return text[:200] if text else "(no message)"


def llm_policy(spec: str, seed: int | None = None) -> LLMPolicy:
    """The :class:`LLMPolicy` of an ``llm:<base_url>:<model>`` spec (timeout from
    ``CARD_ENVS_LLM_TIMEOUT``, key from ``CARD_ENVS_LLM_API_KEY``).

    Raises:
        ConfigError: a malformed spec or timeout variable. MissingExtraError: no httpx.
    """
    base_url, model = parse_spec(spec)
    return LLMPolicy(base_url, model, seed=seed, name=spec)
