"""A Redmine-like issue tracker on Python's wsgiref: a real HTTP server that answers as Redmine 5's REST API does
on the points a connector's meaning checks turn on.

- The API key comes in the `X-Redmine-API-Key` header (or the `key` query parameter). A key no user holds, a
  revoked one included, is not refused: the request is served as the anonymous user, who sees public projects
  and their issues. Only what needs a login answers 401: `GET /users/current.json`, `GET /users.json`, writes,
  and anything in a project the anonymous user cannot see.
- Users have a login, a first and last name and a mail; journals name their user as `{id, name}`, where the
  name is the display name ("Alice Liddell"), as Redmine's default user format writes it.
- `GET /projects.json`, `GET /issues.json?project_id=&updated_on=>=...&sort=&offset=&limit=`,
  `GET /issues/<id>.json[?include=journals]`, `POST /issues.json`, `PUT /issues/<id>.json` (a journal by the
  key's user), `DELETE /issues/<id>.json`, `GET /users.json?name=&status=` (administrators only).

Test hooks, which Redmine has not: `POST /test-hooks/revoke-api-key` with `{"key": "..."}` gives the user
holding that key a new one (as "Reset" under "API access key" in Redmine's "My account" does), so the old key
is unknown from then on; `POST /test-hooks/reset` restores the seed data and keys.

Listens on 127.0.0.1, on the port given (0: any free one), and prints "listening <port>" once it accepts
connections.
"""
import copy
import json
import re
import secrets
import sys
import time
from datetime import datetime, timezone
from urllib.parse import parse_qs
from wsgiref.simple_server import WSGIRequestHandler, make_server


def stamp(text):
    return int(datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=timezone.utc).timestamp())


def iso(seconds):
    return datetime.fromtimestamp(seconds, timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


SEED = {
    "users": [
        {"id": 1, "login": "alice", "firstname": "Alice", "lastname": "Liddell", "mail": "alice@example.com",
         "admin": True, "status": 1, "api_key": "a11ce0000000000000000000000000000000a11c",
         "created_on": stamp("2025-12-01T08:00:00Z")},
        {"id": 2, "login": "bob", "firstname": "Bob", "lastname": "Builder", "mail": "bob@example.com",
         "admin": False, "status": 1, "api_key": "b0b0000000000000000000000000000000000b0b",
         "created_on": stamp("2025-12-01T08:05:00Z")},
    ],
    "projects": [
        {"id": 1, "identifier": "sandbox", "name": "Sandbox", "is_public": True, "members": [1, 2]},
        {"id": 2, "identifier": "vault", "name": "Vault", "is_public": False, "members": [1]},
    ],
    "issues": [
        {"id": 1, "project_id": 1, "author_id": 1, "subject": "Login page is slow", "description": "",
         "due_date": None, "created_on": stamp("2026-01-05T09:00:00Z"), "updated_on": stamp("2026-01-07T11:30:00Z"),
         "journals": [
             {"id": 1, "user_id": 2, "notes": "", "created_on": stamp("2026-01-06T10:00:00Z"),
              "details": [{"property": "attr", "name": "subject", "old_value": "Login is slow",
                           "new_value": "Login page is slow"}]},
             {"id": 2, "user_id": 1, "notes": "Looking into it.", "created_on": stamp("2026-01-07T11:30:00Z"),
              "details": []},
         ]},
        {"id": 2, "project_id": 1, "author_id": 2, "subject": "Export fails", "description": "CSV export answers 500",
         "due_date": "2026-03-01", "created_on": stamp("2026-01-08T14:00:00Z"),
         "updated_on": stamp("2026-01-08T14:00:00Z"), "journals": []},
        {"id": 3, "project_id": 2, "author_id": 1, "subject": "Rotate the signing keys", "description": "",
         "due_date": None, "created_on": stamp("2026-01-09T07:00:00Z"), "updated_on": stamp("2026-01-09T07:00:00Z"),
         "journals": []},
    ],
}
# What PUT may change (Redmine's safe attributes, the few this tracker keeps); anything else is ignored.
EDITABLE = ("subject", "description", "due_date")

state = {}


def reset():
    state.clear()
    state.update(copy.deepcopy(SEED))
    state["next_issue"] = 1 + max(issue["id"] for issue in state["issues"])
    state["next_journal"] = 1 + max(j["id"] for issue in state["issues"] for j in issue["journals"])


class Answer(Exception):
    """An answer other than 200, raised from anywhere in a request: status, and a body (None: no body)."""

    def __init__(self, status, body=None, headers=()):
        super().__init__(status)
        self.status = status
        self.body = body
        self.headers = list(headers)


def unauthorized():
    # Redmine's `require_login` for an API format: 401, no body, a Basic challenge.
    return Answer("401 Unauthorized", None, [("WWW-Authenticate", 'Basic realm="Redmine API"')])


def deny(user):
    # Redmine's `deny_access`: the anonymous user is asked to log in (401), a logged-in one is refused (403).
    return unauthorized() if user is None else Answer("403 Forbidden")


def current_user(environ, query):
    key = environ.get("HTTP_X_REDMINE_API_KEY") or (query.get("key") or [""])[0]
    if not key:
        return None
    return next((user for user in state["users"] if user["api_key"] == key and user["status"] == 1), None)


def user_by_id(user_id):
    return next(user for user in state["users"] if user["id"] == user_id)


def display_name(user):
    return "%s %s" % (user["firstname"], user["lastname"])


def visible(project, user):
    return project["is_public"] or (user is not None and (user["admin"] or user["id"] in project["members"]))


def may_write(project, user):
    if user is None:
        raise unauthorized()
    if not (user["admin"] or user["id"] in project["members"]):
        raise Answer("403 Forbidden")


def find_project(ref, user):
    ref = str(ref)
    project = next((p for p in state["projects"] if str(p["id"]) == ref or p["identifier"] == ref), None)
    if project is None:
        raise Answer("404 Not Found")
    if not visible(project, user):
        raise deny(user)
    return project


def find_issue(issue_id, user):
    issue = next((issue for issue in state["issues"] if str(issue["id"]) == issue_id), None)
    if issue is None:
        raise Answer("404 Not Found")
    if not visible(project_of(issue), user):
        raise deny(user)
    return issue


def project_of(issue):
    return next(p for p in state["projects"] if p["id"] == issue["project_id"])


def window(query):
    # Redmine's api_offset_and_limit: a negative offset is 0, a limit outside 1..100 is 25 or 100.
    offset = max(0, int((query.get("offset") or ["0"])[0] or 0))
    limit = int((query.get("limit") or ["25"])[0] or 25)
    return offset, (25 if limit < 1 else min(limit, 100))


def page(name, items, query):
    offset, limit = window(query)
    return {name: items[offset:offset + limit], "total_count": len(items), "offset": offset, "limit": limit}


def issue_json(issue, journals):
    project = project_of(issue)
    author = user_by_id(issue["author_id"])
    body = {
        "id": issue["id"],
        "project": {"id": project["id"], "name": project["name"]},
        "tracker": {"id": 1, "name": "Bug"},
        "status": {"id": 1, "name": "New", "is_closed": False},
        "priority": {"id": 2, "name": "Normal"},
        "author": {"id": author["id"], "name": display_name(author)},
        "subject": issue["subject"],
        "description": issue["description"],
        "start_date": None,
        "due_date": issue["due_date"],
        "done_ratio": 0,
        "is_private": False,
        "estimated_hours": None,
        "created_on": iso(issue["created_on"]),
        "updated_on": iso(issue["updated_on"]),
        "closed_on": None,
    }
    if journals:
        body["journals"] = [
            {
                "id": journal["id"],
                "user": {"id": journal["user_id"], "name": display_name(user_by_id(journal["user_id"]))},
                "notes": journal["notes"],
                "created_on": iso(journal["created_on"]),
                "private_notes": False,
                "details": journal["details"],
            }
            for journal in issue["journals"]
        ]
    return body


def user_json(user, with_key=False):
    body = {
        "id": user["id"],
        "login": user["login"],
        "admin": user["admin"],
        "firstname": user["firstname"],
        "lastname": user["lastname"],
        "mail": user["mail"],
        "created_on": iso(user["created_on"]),
        "last_login_on": None,
    }
    if with_key:
        body["api_key"] = user["api_key"]
    return body


def time_filter(text):
    """Redmine's `updated_on` filter: `>=T`, `<=T` or `><T1|T2`, T a UTC timestamp or a date."""

    def parse(value):
        for pattern in ("%Y-%m-%dT%H:%M:%SZ", "%Y-%m-%d"):
            try:
                return int(datetime.strptime(value, pattern).replace(tzinfo=timezone.utc).timestamp())
            except ValueError:
                pass
        raise Answer("422 Unprocessable Entity", {"errors": ["Updated is invalid"]})

    if text.startswith(">="):
        low = parse(text[2:])
        return lambda t: t >= low
    if text.startswith("<="):
        high = parse(text[2:])
        return lambda t: t <= high
    if text.startswith("><") and "|" in text:
        low, high = (parse(part) for part in text[2:].split("|", 1))
        return lambda t: low <= t <= high
    raise Answer("422 Unprocessable Entity", {"errors": ["Updated is invalid"]})


def list_issues(query, user):
    issues = state["issues"]
    if query.get("project_id"):
        project = find_project(query["project_id"][0], user)
        issues = [issue for issue in issues if issue["project_id"] == project["id"]]
    else:
        issues = [issue for issue in issues if visible(project_of(issue), user)]
    if query.get("updated_on"):
        keep = time_filter(query["updated_on"][0])
        issues = [issue for issue in issues if keep(issue["updated_on"])]
    column, _, direction = ((query.get("sort") or ["id:desc"])[0]).partition(":")
    if column not in ("id", "updated_on", "created_on"):
        column = "id"
    issues = sorted(issues, key=lambda issue: (issue[column], issue["id"]), reverse=direction == "desc")
    return page("issues", [issue_json(issue, False) for issue in issues], query)


def like(user, name):
    """Redmine's `User.like`: login or mail contains the text, or each word is in the first or last name."""
    text = name.lower()
    if text in user["login"].lower() or text in user["mail"].lower():
        return True
    words = text.split()
    return bool(words) and all(
        word in user["firstname"].lower() or word in user["lastname"].lower() for word in words
    )


def list_users(query, user):
    if user is None:
        raise unauthorized()
    if not user["admin"]:
        raise Answer("403 Forbidden")
    status = query["status"][0] if "status" in query else "1"
    users = [u for u in state["users"] if status == "" or str(u["status"]) == status]
    if query.get("name"):
        users = [u for u in users if like(u, query["name"][0])]
    users = sorted(users, key=lambda u: u["login"])
    return page("users", [user_json(u) for u in users], query)


def read_json(environ):
    length = int(environ.get("CONTENT_LENGTH") or 0)
    try:
        body = json.loads(environ["wsgi.input"].read(length) or b"{}")
    except ValueError:
        raise Answer("400 Bad Request")
    if not isinstance(body, dict) or not isinstance(body.get("issue", {}), dict):
        raise Answer("400 Bad Request")
    return body.get("issue", {})


def create_issue(environ, user):
    fields = read_json(environ)
    if user is None:
        raise unauthorized()
    if fields.get("project_id") is None:
        raise Answer("422 Unprocessable Entity", {"errors": ["Project cannot be blank"]})
    project = find_project(fields["project_id"], user)
    may_write(project, user)
    if not str(fields.get("subject") or "").strip():
        raise Answer("422 Unprocessable Entity", {"errors": ["Subject cannot be blank"]})
    now = int(time.time())
    issue = {"id": state["next_issue"], "project_id": project["id"], "author_id": user["id"],
             "subject": str(fields["subject"]), "description": str(fields.get("description") or ""),
             "due_date": fields.get("due_date"), "created_on": now, "updated_on": now, "journals": []}
    state["next_issue"] += 1
    state["issues"].append(issue)
    raise Answer("201 Created", {"issue": issue_json(issue, False)}, [("Location", "/issues/%d" % issue["id"])])


def update_issue(environ, issue_id, user):
    fields = read_json(environ)
    issue = find_issue(issue_id, user)
    may_write(project_of(issue), user)
    if "subject" in fields and not str(fields["subject"] or "").strip():
        raise Answer("422 Unprocessable Entity", {"errors": ["Subject cannot be blank"]})
    details = []
    for name in EDITABLE:
        if name in fields and fields[name] != issue[name]:
            details.append({"property": "attr", "name": name, "old_value": issue[name], "new_value": fields[name]})
            issue[name] = fields[name]
    notes = str(fields.get("notes") or "")
    # Redmine saves a journal only when something changed or notes were written.
    if details or notes:
        now = int(time.time())
        issue["journals"].append({"id": state["next_journal"], "user_id": user["id"], "notes": notes,
                                  "created_on": now, "details": details})
        state["next_journal"] += 1
        issue["updated_on"] = now
    raise Answer("204 No Content")


def delete_issue(issue_id, user):
    issue = find_issue(issue_id, user)
    may_write(project_of(issue), user)
    state["issues"].remove(issue)
    raise Answer("204 No Content")


def test_hook(environ, name):
    if name == "reset":
        reset()
        raise Answer("204 No Content")
    if name == "revoke-api-key":
        length = int(environ.get("CONTENT_LENGTH") or 0)
        key = json.loads(environ["wsgi.input"].read(length) or b"{}").get("key")
        holder = next((user for user in state["users"] if key and user["api_key"] == key), None)
        if holder is None:
            raise Answer("404 Not Found")
        holder["api_key"] = secrets.token_hex(20)
        raise Answer("204 No Content")
    raise Answer("404 Not Found")


def route(environ):
    method = environ["REQUEST_METHOD"]
    path = environ.get("PATH_INFO", "")
    query = parse_qs(environ.get("QUERY_STRING", ""), keep_blank_values=True)
    hook = re.fullmatch(r"/test-hooks/([a-z-]+)", path)
    if hook and method == "POST":
        test_hook(environ, hook.group(1))
    user = current_user(environ, query)
    if method == "GET" and path == "/users/current.json":
        if user is None:
            raise unauthorized()
        return {"user": user_json(user, with_key=True)}
    if method == "GET" and path == "/users.json":
        return list_users(query, user)
    if method == "GET" and path == "/projects.json":
        projects = [
            {"id": p["id"], "name": p["name"], "identifier": p["identifier"], "description": "", "status": 1,
             "is_public": p["is_public"]}
            for p in state["projects"] if visible(p, user)
        ]
        return page("projects", projects, query)
    if path == "/issues.json":
        if method == "GET":
            return list_issues(query, user)
        if method == "POST":
            create_issue(environ, user)
    one = re.fullmatch(r"/issues/(\d+)\.json", path)
    if one:
        if method == "GET":
            includes = (query.get("include") or [""])[0].split(",")
            return {"issue": issue_json(find_issue(one.group(1), user), "journals" in includes)}
        if method == "PUT":
            update_issue(environ, one.group(1), user)
        if method == "DELETE":
            delete_issue(one.group(1), user)
    raise Answer("404 Not Found")


def app(environ, start_response):
    try:
        status, body, headers = "200 OK", route(environ), []
    except Answer as answer:
        status, body, headers = answer.status, answer.body, answer.headers
    if body is None:
        start_response(status, headers + [("Content-Length", "0")])
        return [b""]
    data = json.dumps(body).encode()
    start_response(status, headers + [("Content-Type", "application/json; charset=utf-8"),
                                      ("Content-Length", str(len(data)))])
    return [data]


class QuietHandler(WSGIRequestHandler):
    def log_message(self, *args):
        pass


reset()
server = make_server("127.0.0.1", int(sys.argv[1]) if len(sys.argv) > 1 else 0, app, handler_class=QuietHandler)
print("listening %d" % server.server_port, flush=True)
server.serve_forever()
