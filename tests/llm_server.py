"""A local OpenAI-compatible chat-completions server for the ``llm:`` policy tests (http.server in
a thread). The model name picks the behaviour; every request is kept (``server.requests``: the
JSON body and the headers).

========== ==========================================================================
scripted   a random listed move of the last observation, named (ScriptedTextAgent)
chatty     the same, after a ``<think>`` block and a sentence (``...\\nMove: <name>``)
junk       ``I like turtles.``
illegal    a move of the game that is not listed (``counter``, ``decline``, ``done``...)
slow       sleeps ``server.delay`` seconds, then answers as ``scripted``
flaky      HTTP 503 for the first ``server.failures`` requests, then ``scripted``
broken     HTTP 200 with a body that is not a chat completion
other      HTTP 404 ``{"error": {"message": "model '<name>' not found"}}``
========== ==========================================================================
"""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from card_envs.testing.text_agent import MOVES_HEADING, ScriptedTextAgent, listed_moves, short_name

#: real move names of the games, offered by the "illegal" model when not listed
GAME_MOVES = ("counter", "decline", "done", "resurrect", "end_turn", "pass", "apply", "no_bonus",
              "play_top", "mix_done")
MODELS = ("scripted", "chatty", "junk", "illegal", "slow", "flaky", "broken")


class ChatServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self):
        super().__init__(("127.0.0.1", 0), _Handler)
        self.requests: list[dict] = []
        self.delay = 1.0
        self.failures = 2
        self.agent = ScriptedTextAgent(seed=0)
        self.lock = threading.Lock()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/v1"


def _observation(messages: list[dict]) -> str:
    """The last user message that lists moves (a retry's problem message lists none)."""
    for message in reversed(messages):
        if message["role"] == "user" and MOVES_HEADING in message["content"]:
            return message["content"]
    return ""


class _Handler(BaseHTTPRequestHandler):
    server: ChatServer

    def log_message(self, *args):  # quiet
        pass

    def _send(self, status: int, body) -> None:
        data = (json.dumps(body) if not isinstance(body, str) else body).encode()
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):  # the client gave up (a timeout test)
            pass

    def do_POST(self):
        length = int(self.headers.get("Content-Length", 0))
        body = json.loads(self.rfile.read(length))
        server = self.server
        with server.lock:
            server.requests.append({"path": self.path, "body": body,
                                    "headers": dict(self.headers)})
            count = len(server.requests)
        if self.path != "/v1/chat/completions":
            return self._send(404, {"error": {"message": f"no route {self.path}"}})
        model = body["model"]
        if model not in MODELS:
            return self._send(404, {"error": {"message": f"model '{model}' not found"}})
        if model == "slow":
            time.sleep(server.delay)
        if model == "flaky" and count <= server.failures:
            return self._send(503, {"error": {"message": "overloaded, try again"}})
        if model == "broken":
            return self._send(200, {"nothing": "here"})
        observation = _observation(body["messages"])
        with server.lock:
            reply = server.agent.reply(observation) if listed_moves(observation) else "?"
        if model == "chatty":
            reply = f"<think>Let me weigh the moves.</think>\nI pick this one.\nMove: {reply}"
        elif model == "junk":
            reply = "I like turtles."
        elif model == "illegal":
            listed = {short_name(line) for _, line in listed_moves(observation)}
            reply = next(m for m in GAME_MOVES if m not in listed)
        self._send(200, {"id": f"chatcmpl-{count}", "object": "chat.completion",
                         "model": model, "choices": [{
                             "index": 0, "finish_reason": "stop",
                             "message": {"role": "assistant", "content": reply}}]})


def start() -> ChatServer:
    """A running server (stop it with ``shutdown()`` and ``server_close()``)."""
    server = ChatServer()
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server
