"""schemathesis hooks for the drift checks (tests/drift/schemathesis.sh).

They supply what a schema cannot make valid, so that a refused request means a real disagreement
between the spec and the API:
- business rules: CPF/CNPJ check digits, real area codes (DDD), CEPs that exist, names with a
  letter, template placeholders that exist, the shape of a step by its action, a fine of at most
  2% for a consumer, dates in the years 1900 to 2199 (a pattern on every date field would cost
  the tool catalogue more bytes than its budget has; the error message names the range);
- state: an idempotency key must be fresh, an If-Match must name the object's current ETag, an id
  in a body must name an object that exists, a payment at most the balance, the default policy
  stays active, a send time within the policy's window, a list's `fields` names fields of its
  rows.

They only touch requests schemathesis meant to be valid (positive mode), in `before_call`, so every
phase goes through them; a negative request is sent as drawn. schemathesis revalidates a case
after `before_call`, so a value set here is judged against the schema like any drawn one. Where a
value must be chosen, it comes from a generator seeded by the request, so a run repeats
(idempotency keys excepted: they must be new).

Rules a schema can state are in the spec (openapi/v1.yaml), not here.
"""

import atexit
import datetime
import json
import math
import os
import random
import re
import unicodedata
import uuid
import zlib
from pathlib import Path
from urllib.parse import quote

import requests
import schemathesis
import yaml

BASE = os.environ.get("KD_DRIFT_BASE", "")
TOKEN = os.environ.get("KD_DRIFT_TOKEN", "")
_session = requests.Session()
_session.headers["Authorization"] = f"Bearer {TOKEN}"

# The spec the run checks: the lists of objects below come from it, so a new operation or
# collection is covered without an edit here.
SPEC = yaml.safe_load((Path(__file__).resolve().parents[2] / "openapi" / "v1.yaml").read_text())


def get(path, **params):
    """The API's answer to GET `path` (the hooks' own reads are not test cases)."""
    return _session.get(BASE + path, params=params, timeout=10)


def read(path):
    """The object at `path`, or None."""
    answer = get(path)
    return answer.json()["data"] if answer.status_code == 200 else None


def today():
    """Today in the organization's time zone (America/Sao_Paulo, UTC-3)."""
    return (datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(hours=3)).date().isoformat()


# --- Business rules -----------------------------------------------------------------------------


def cpf_from(digits):
    """A CPF with valid check digits from its first nine digits."""
    nums = list(digits)
    for size in (9, 10):
        total = sum(n * (size + 1 - i) for i, n in enumerate(nums[:size]))
        nums.append((total * 10) % 11 % 10)
    return "".join(map(str, nums))


def cnpj_from(digits):
    """A CNPJ with valid check digits from its first twelve digits."""
    nums = list(digits)
    for weights in ([5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2], [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]):
        rest = sum(n * w for n, w in zip(nums, weights)) % 11
        nums.append(0 if rest < 2 else 11 - rest)
    return "".join(map(str, nums))


def document(rng):
    """A CPF or a CNPJ, not a single repeated digit."""
    size = rng.choice((9, 12))
    while True:
        digits = [rng.randrange(10) for _ in range(size)]
        if len(set(digits)) > 1:
            return cpf_from(digits) if size == 9 else cnpj_from(digits)


# Area codes (DDD) in use in Brazil.
AREA_CODES = [
    11, 12, 13, 14, 15, 16, 17, 18, 19, 21, 22, 24, 27, 28, 31, 32, 33, 34, 35, 37, 38, 41, 42, 43,
    44, 45, 46, 47, 48, 49, 51, 53, 54, 55, 61, 62, 63, 64, 65, 66, 67, 68, 69, 71, 73, 74, 75, 77,
    79, 81, 82, 83, 84, 85, 86, 87, 88, 89, 91, 92, 93, 94, 95, 96, 97, 98, 99,
]


def has_letter(text):
    """A letter people can see, as the API reads names (src/domain/text.rs `has_letter`)."""
    return any(c.isalpha() and c not in "\u115f\u1160\u3164\uffa0" for c in text)


def with_letter(name, max_length):
    """`name`, made to name someone: a letter in front when it has none."""
    if isinstance(name, str) and not has_letter(name):
        return ("A " + name)[:max_length]
    return name


# The characters the documents' font prints, read from the server's own table
# (src/domain/printable.rs `RANGES`): a name, an address line or a description a document prints
# is refused on save when it holds another, after composing accents (NFC); controls are the text
# rule's business.
PRINTABLE = [
    (int(first, 16), int(last, 16))
    for first, last in re.findall(
        r"\(0x([0-9A-F]+), 0x([0-9A-F]+)\)",
        (Path(__file__).resolve().parents[2] / "src" / "domain" / "printable.rs").read_text(),
    )
]
assert PRINTABLE, "src/domain/printable.rs RANGES could not be read"


def printable(text):
    """`text` with every character the documents cannot print left out."""
    if not isinstance(text, str):
        return text
    keep = lambda c: unicodedata.category(c) == "Cc" or any(a <= ord(c) <= b for a, b in PRINTABLE)
    return "".join(c for c in unicodedata.normalize("NFC", text) if keep(c))


ADDRESS_LINES = ("street", "number", "complement", "neighborhood", "city")


def fix_debtor(body, rng):
    """A debtor body's fields that carry rules: the document's check digits, real area codes, a
    CEP that exists, a name with a letter, a birth date not in the future."""
    if "document" in body:
        body["document"] = document(rng)
    if isinstance(body.get("mobile"), str):
        body["mobile"] = f"+55{rng.choice(AREA_CODES)}9{rng.randrange(10_000_000, 100_000_000)}"
    if isinstance(body.get("phone"), str):
        body["phone"] = f"+55{rng.choice(AREA_CODES)}{rng.randrange(20_000_000, 60_000_000)}"
    address = body.get("address")
    if isinstance(address, dict) and "zipcode" in address:
        address["zipcode"] = f"{rng.randrange(1_000_000, 100_000_000):08d}"
    if isinstance(address, dict):
        for line in ADDRESS_LINES:
            if isinstance(address.get(line), str):
                address[line] = printable(address[line]) or "1"
    if "name" in body:
        body["name"] = with_letter(printable(body["name"]), 120)
    if isinstance(body.get("birth_date"), str) and body["birth_date"] > today():
        body["birth_date"] = "1990-01-01"


PLACEHOLDER = re.compile(r"\{\{(.*?)\}\}", re.S)
PLACEHOLDERS = {"debtor_name", "amount", "due_date", "days_overdue", "description", "payment_line", "pix_code"}


def fix_template_text(text):
    """The text, its `{{` broken up unless every `{{…}}` names a placeholder that exists (an
    unknown one is refused, the spec says so in words)."""
    if not isinstance(text, str) or "{{" not in text:
        return text
    ok = all(m.group(1).strip() in PLACEHOLDERS for m in PLACEHOLDER.finditer(text))
    rest = PLACEHOLDER.sub("", text)
    if ok and "{{" not in rest:
        return text
    return text.replace("{{", "{ {")


# What a channel takes once a template is filled in (the server refuses more, as the spec says
# in words): the body's characters per channel, and the subject's.
BODY_LIMITS = {"sms": 1600, "whatsapp": 4096}
OTHER_BODY_LIMIT = 10_000
SUBJECT_LIMIT = 200


def within(text, limit):
    """The text cut so that, filled in, it stays within `limit`: placeholders broken up when
    their values could carry it past."""
    if not isinstance(text, str):
        return text
    if len(text) + 2_000 > limit:
        text = text.replace("{{", "{ {")
    return text[:limit]


def fix_template(template, channel):
    if not isinstance(template, dict):
        return
    for field in ("subject", "body"):
        if field in template:
            template[field] = fix_template_text(template[field])
    if "subject" in template:
        template["subject"] = within(template["subject"], SUBJECT_LIMIT)
    if "body" in template:
        template["body"] = within(template["body"], BODY_LIMITS.get(channel, OTHER_BODY_LIMIT))
    if channel is not None and channel != "email":
        template.pop("subject", None)  # the subject is the e-mail's


def minutes(hhmm):
    h, m = hhmm.split(":")
    return int(h) * 60 + int(m)


def in_window(hhmm, window):
    """Whether a send time is within a window (its start included, its end not)."""
    return minutes(window["start"]) <= minutes(hhmm) < minutes(window["end"])


# A policy's window when none is sent (src/domain/policy.rs `Window::DEFAULT`).
DEFAULT_WINDOW = {"start": "09:00", "end": "18:00"}


def fix_step(step, current, window):
    """A step as its action wants it: a message has a channel and a template and no approval;
    an escalation has neither and waits for a human; only a protest step has a title type. Its
    send time is within the window."""
    if not isinstance(step, dict):
        return
    merged = {**(current or {}), **step}
    if merged.get("action", "notify") != "protest":
        step.pop("title_type", None)
    if merged.get("action", "notify") != "notify":
        step.pop("channel", None)
        step.pop("template", None)
        if current is None or "requires_approval" in step:
            step["requires_approval"] = True
    else:
        if merged.get("channel") is None:
            step["channel"] = "email"
        if merged.get("template") is None:
            step["template"] = {"body": "{{debtor_name}}, a cobrança de {{amount}} vence em {{due_date}}."}
        if "requires_approval" in step:
            step["requires_approval"] = False
        channel = step.get("channel", merged.get("channel"))
        fix_template(step.get("template"), channel)
        if "channel" in step and "template" not in step and channel != "email":
            if (merged.get("template") or {}).get("subject") is not None:
                step["template"] = {"body": merged["template"]["body"]}
    send_time = step.get("send_time")
    if window and isinstance(send_time, str):
        if not in_window(send_time, window):
            step["send_time"] = window["start"]


def fix_window(window):
    """A send window that ends after it starts."""
    if isinstance(window, dict) and isinstance(window.get("start"), str) and isinstance(window.get("end"), str):
        if minutes(window["end"]) <= minutes(window["start"]):
            window["start"], window["end"] = "08:00", "20:00"


# The characters the line pattern (x-text-patterns in the spec) refuses, for metadata keys.
TEXT_RULE = re.compile(
    "[\x00-\x1f\x7f-\x9f\xad\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u180e\u200b-\u200f"
    "\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb]"
)


def fix_metadata(body):
    """Metadata keys follow the text rule too, which OpenAPI 3.0 cannot state (no propertyNames)."""
    metadata = body.get("metadata")
    if isinstance(metadata, dict):
        clean = {}
        for key, value in metadata.items():
            clean[TEXT_RULE.sub("", key)] = value
        body["metadata"] = clean


# The format characters above U+FFFF, which the text rule refuses and the spec's patterns cannot
# list portably (see x-text-patterns): drawn text does without them.
ASTRAL_FORMAT = re.compile(
    "[\U000110bd\U000110cd\U00013430-\U0001343f\U0001bca0-\U0001bca3\U0001d173-\U0001d17a"
    "\U000e0001\U000e0020-\U000e007f]"
)


def without_astral_format(value):
    if isinstance(value, str):
        return ASTRAL_FORMAT.sub("", value)
    if isinstance(value, list):
        return [without_astral_format(v) for v in value]
    if isinstance(value, dict):
        return {without_astral_format(k): without_astral_format(v) for k, v in value.items()}
    return value


# --- Per operation --------------------------------------------------------------------------------


def debtors(case, body, rng):
    fix_debtor(body, rng)


def modulo_10(digits):
    total = 0
    for i, d in enumerate(reversed(digits)):
        product = int(d) * (2 if i % 2 == 0 else 1)
        total += product // 10 + product % 10
    return (10 - total % 10) % 10


def due_factor(due):
    """FEBRABAN's due factor: days since 1997-10-07, from 1000 again after 2025-02-21 (9999)."""
    day = datetime.date.fromisoformat(due)
    rollover = datetime.date(2025, 2, 22)
    if day < rollover:
        factor = (day - datetime.date(1997, 10, 7)).days
    else:
        factor = (day - rollover).days % 9000 + 1000
    return factor if 1000 <= factor <= 9999 else None


def boleto_for(amount, due, rng):
    """A Banco do Brasil boleto (its digitable line) for `amount` reais due on `due`, or None
    where the layout cannot say that due date."""
    factor = due_factor(due) if isinstance(due, str) else None
    cents = round(amount * 100) if isinstance(amount, (int, float)) else None
    if factor is None or cents is None or not 0 <= cents <= 9_999_999_999:
        return None
    free = "".join(str(rng.randrange(10)) for _ in range(25))
    body = f"0019{factor:04d}{cents:010d}{free}"
    weights = [2, 3, 4, 5, 6, 7, 8, 9]
    total = sum(int(d) * weights[i % 8] for i, d in enumerate(reversed(body)))
    check = 11 - total % 11
    check = 1 if check in (0, 10, 11) else check
    barcode = body[:4] + str(check) + body[4:]
    fields = [barcode[0:4] + barcode[19:24], barcode[24:34], barcode[34:44]]
    fields = [f + str(modulo_10(f)) for f in fields]
    return {"line": " ".join(f"{f[:5]}.{f[5:]}" for f in fields) + f" {barcode[4]} {barcode[5:19]}"}


def emv_field(tag, value):
    return f"{tag}{len(value):02d}{value}"


def crc16(data):
    crc = 0xFFFF
    for byte in data.encode():
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else crc << 1
            crc &= 0xFFFF
    return crc


def pix_for(balance):
    """A static Pix BR Code for `balance` reais, as Banco Central's manual lays it out."""
    if not isinstance(balance, (int, float)) or balance <= 0:
        return None
    account = emv_field("00", "br.gov.bcb.pix") + emv_field("01", "drift@example.com.br")
    code = (emv_field("00", "01") + emv_field("26", account) + emv_field("52", "0000") + emv_field("53", "986")
            + emv_field("54", f"{balance:.2f}") + emv_field("58", "BR") + emv_field("59", "Drift")
            + emv_field("60", "Sao Paulo") + emv_field("62", emv_field("05", "DRIFT1")) + "6304")
    return {"emv": code + f"{crc16(code):04X}"}


def fix_payment_codes(body, amount, due, balance, keep_boleto, keep_pix, rng):
    """A boleto and a Pix code that agree with the charge as it will be, where the body sends
    one or the charge keeps one that the change would make stale."""
    if isinstance(body.get("boleto"), dict) or keep_boleto:
        body["boleto"] = boleto_for(amount, due, rng)
    if isinstance(body.get("pix"), dict) or keep_pix:
        body["pix"] = pix_for(balance)


def charges_create(case, body, rng):
    if isinstance(body.get("description"), str):
        body["description"] = printable(body["description"])
    fix_payment_codes(body, body.get("amount"), body.get("due_date"), body.get("amount"), False, False, rng)
    for key in ("boleto", "pix"):
        if key in body and body[key] is None:
            del body[key]
    debtor = read(f"/v1/debtors/{quote(str(body.get('debtor_id')), safe='')}")
    if debtor and debtor["person_type"] == "natural" and body.get("fine_percentage", 2) > 2:
        body["fine_percentage"] = 2  # CDC art. 52 §1
    if isinstance(body.get("issue_date"), str) and isinstance(body.get("due_date"), str):
        if body["issue_date"] > body["due_date"]:
            body["issue_date"] = body["due_date"]


def charges_update(case, body, rng):
    if isinstance(body.get("description"), str):
        body["description"] = printable(body["description"])
    charge = read(object_path(case))
    if charge is None:
        return
    if isinstance(body.get("amount"), (int, float)) and body["amount"] <= charge["paid_amount"]:
        body["amount"] = round(charge["paid_amount"] + 1, 2)
    if isinstance(body.get("due_date"), str) and body["due_date"] < charge["issue_date"]:
        body["due_date"] = charge["issue_date"]
    amount = body.get("amount", charge["amount"])
    due = body.get("due_date", charge["due_date"])
    balance = round(amount - charge["paid_amount"], 2) if isinstance(amount, (int, float)) else None
    fix_payment_codes(body, amount, due, balance, charge.get("boleto") is not None, charge.get("pix") is not None, rng)


def charges_settle(case, body, rng):
    charge = read(object_path(case))
    if charge and isinstance(body.get("paid_amount"), (int, float)) and body["paid_amount"] > charge["balance"]:
        if charge["balance"] > 0:
            body["paid_amount"] = charge["balance"]
        else:
            del body["paid_amount"]  # nothing left to pay: the whole (empty) balance
    if isinstance(body.get("paid_at"), str):
        now = datetime.datetime.now(datetime.timezone.utc)
        try:
            paid_at = datetime.datetime.fromisoformat(body["paid_at"].replace("Z", "+00:00"))
        except ValueError:
            return
        if paid_at.tzinfo is None or paid_at > now:
            body["paid_at"] = now.replace(microsecond=0).isoformat().replace("+00:00", "Z")


ZONES = ["America/Sao_Paulo", "America/Noronha", "America/Manaus", "America/Rio_Branco", "UTC"]


def fix_timezone(body, rng):
    # A pattern cannot say which names the time zone database has.
    if isinstance(body.get("timezone"), str):
        body["timezone"] = rng.choice(ZONES)


def policies_create(case, body, rng):
    fix_timezone(body, rng)
    if body.get("is_default") and body.get("status") == "draft":
        body["status"] = "active"  # only an active policy can be the default
    fix_window(body.get("send_window"))
    window = body.get("send_window") or DEFAULT_WINDOW
    for step in body.get("steps") or []:
        fix_step(step, None, window)
    if "name" in body:
        body["name"] = with_letter(body["name"], 100)


def policies_update(case, body, rng):
    fix_timezone(body, rng)
    policy = read(case.formatted_path)
    if policy is None:
        return
    if (policy.get("is_default") or body.get("is_default")) and body.get("status", policy["status"]) != "active":
        body["status"] = "active"  # the default policy stays active, only an active one becomes it
    fix_window(body.get("send_window"))
    window = body.get("send_window")
    if isinstance(window, dict):
        for step in policy.get("steps") or []:
            if step.get("send_time") and not in_window(step["send_time"], window):
                body.pop("send_window")
                break
    if "name" in body:
        body["name"] = with_letter(body["name"], 100)


def steps_create(case, body, rng):
    cp = case.path_parameters.get("cp_id")
    policy = read(f"/v1/collection_policies/{quote(str(cp), safe='')}")
    fix_step(body, None, policy and policy.get("send_window"))


def steps_update(case, body, rng):
    cp = case.path_parameters.get("cp_id")
    policy = read(f"/v1/collection_policies/{quote(str(cp), safe='')}")
    step = read(case.formatted_path)
    if step is not None:
        fix_step(body, step, policy and policy.get("send_window"))


def charges_pause(case, body, rng):
    # A pause ends after today, which a schema cannot say.
    if isinstance(body.get("until"), str):
        day = datetime.date.fromisoformat(today()) + datetime.timedelta(days=rng.randint(1, 60))
        body["until"] = day.isoformat()


def charges_notify(case, body, rng):
    fix_template(body.get("template"), body.get("channel"))


# The largest amount one charge (so one installment) may carry, in reais.
MAX_CHARGE = 99_999_999.99


def fix_terms(body, rng, charge_ids):
    """Agreement terms that can be met: the first installment ahead, one kind of discount that
    leaves something to pay, a small down payment due today, and enough installments that none
    is above what one charge may carry (old charges of fuzzed amounts owe decades of interest:
    the server's own simulation says how much)."""
    ahead = datetime.date.fromisoformat(today()) + datetime.timedelta(days=1 + rng.randrange(90))
    body["first_due_date"] = ahead.isoformat()
    body.pop("discount_amount", None)
    if isinstance(body.get("discount_percentage"), (int, float)):
        body["discount_percentage"] = min(body["discount_percentage"], 50)
    if "down_payment_amount" in body:
        body["down_payment_amount"] = 1
        body["down_payment_due_date"] = today()
    else:
        body.pop("down_payment_due_date", None)
    if not isinstance(body.get("installments_count"), int) or not 1 <= body["installments_count"] <= 60:
        body["installments_count"] = 1
    # The server's own simulation says what the charges amount to on these terms; the count is
    # then kept between what one charge may carry and a centavo an installment.
    terms = {k: v for k, v in body.items() if k not in ("grace_days_before_broken", "down_payment_amount",
                                                         "down_payment_due_date", "installments_count")}
    for count in (1, 60):  # one installment may be too large, sixty too small
        answer = _session.post(f"{BASE}/v1/agreements/simulate", json=dict(terms, charge_ids=charge_ids,
                                                                          installments_count=count), timeout=30)
        if answer.status_code == 200:
            break
    else:
        return
    total_cents = round(answer.json()["data"]["total_amount"] * 100)
    if "down_payment_amount" in body and total_cents <= 200:
        body.pop("down_payment_amount", None)
        body.pop("down_payment_due_date", None)
    left = total_cents - (100 if "down_payment_amount" in body else 0)
    needed = min(60, math.ceil(total_cents / (MAX_CHARGE * 100)) + 1)
    body["installments_count"] = max(1, min(max(body["installments_count"], needed), left, 60))


def agreements(case, body, rng):
    """Open charges of one debtor, not themselves installments of an agreement, and terms that
    can be met."""
    items = []
    for page in (1, 2, 3):
        # Oldest due first: the demo's own charges, before the installments the run creates.
        answer = get("/v1/charges", status="pending,overdue", sort_by="due_date", sort_order="asc",
                     per_page=100, page=page)
        found = answer.json().get("data", []) if answer.status_code == 200 else []
        # Fuzzed amounts overdue for decades may owe more than 60 installments can carry.
        items += [c for c in found if not c.get("agreement_id") and 1 <= c.get("amount", 0) <= 1_000_000]
        if items or len(found) < 100:
            break
    if items:
        pick = items[rng.randrange(len(items))]
        same = [c["id"] for c in items if c["debtor_id"] == pick["debtor_id"]]
        body["charge_ids"] = same[: 1 + rng.randrange(min(3, len(same)))]
    fix_terms(body, rng, body.get("charge_ids", []))


def charges_decide(case, body, rng):
    """A decision the API knows (a link may carry another object's `decision` field, an object or
    null), the details each decision takes and no other's, and agreement terms that can be met."""
    known = ("write_off", "restart", "keep_open", "agreement", "credit_bureau", "protest")
    if body.get("decision") not in known:
        body["decision"] = "keep_open"
    for details in ("agreement", "credit_bureau", "protest"):
        if body["decision"] != details:
            body.pop(details, None)
    if body["decision"] == "protest" and not isinstance(body.get("protest"), dict):
        body["protest"] = {"title_type": "DS", "document_number": "NF-1"}
    if body["decision"] == "agreement":
        if not isinstance(body.get("agreement"), dict):
            body["decision"] = "keep_open"
            body.pop("agreement", None)
        else:
            fix_terms(body["agreement"], rng, [str(case.path_parameters.get("id", ""))])


def pix_account(case, body, rng):
    """A key of the DICT's kinds (a CPF or CNPJ here) and a name and city with a letter, which a
    BR Code keeps (src/domain/pix_account.rs); a null key removes the account and needs neither."""
    if body.get("key") is None:
        return
    body["key"] = document(rng)
    for field, limit in (("merchant_name", 25), ("merchant_city", 15)):
        value = body.get(field)
        body[field] = with_letter(value, limit) if isinstance(value, str) and value.strip() else "Loja"


def webhook_url(case, body, rng):
    """A URL the target rules allow (https, a public host name; src/providers/target.rs): the
    schema's pattern says http(s) and printable, not which hosts the server may call."""
    if isinstance(body.get("url"), str):
        body["url"] = f"https://erp{rng.randrange(1000)}.example.com/hooks"


# The filters each export kind has (src/domain/export.rs): the schema lists them all.
EXPORT_FILTERS = {
    "charges": {"created_from", "created_to", "status", "debtor_id"},
    "debtors": {"created_from", "created_to", "status"},
    "notifications": {"created_from", "created_to", "status", "debtor_id", "charge_id"},
    "agreements": {"created_from", "created_to", "status", "debtor_id"},
    "credit_bureau_reports": {"created_from", "created_to", "status", "debtor_id", "charge_id"},
    "protests": {"created_from", "created_to", "status", "debtor_id", "charge_id"},
    "events": {"created_from", "created_to", "code", "resource_id"},
}
EXPORT_STATUSES = {
    "charges": "overdue", "debtors": "active", "notifications": "sent", "agreements": "active",
    "credit_bureau_reports": "requested", "protests": "requested",
}


def export_filters(case, body, rng):
    """Only the filters the kind has, a status of its own, and a window of this century."""
    filters = body.get("filters")
    if not isinstance(filters, dict):
        return
    kind = body.get("kind")
    for name in list(filters):
        if name not in EXPORT_FILTERS.get(kind, set()):
            del filters[name]
    if "status" in filters:
        filters["status"] = EXPORT_STATUSES[kind]
    # Instants from 1900 to 2199 (the far-dates rule), the window running forward.
    if "created_from" in filters:
        filters["created_from"] = "2026-01-01T00:00:00Z"
    if "created_to" in filters:
        filters["created_to"] = "2027-01-01T00:00:00Z"


FIXES = {
    "organization_pix_update": pix_account,
    "exports_create": export_filters,
    "webhooks_create": webhook_url,
    "webhooks_update": webhook_url,
    "agreements_simulate": agreements,
    "agreements_create": agreements,
    "charges_decide": charges_decide,
    "debtors_create": debtors,
    "debtors_update": debtors,
    "charges_create": charges_create,
    "charges_update": charges_update,
    "charges_settle": charges_settle,
    "charges_notify": charges_notify,
    "charges_pause": charges_pause,
    "notifications_create": charges_notify,
    "collection_policies_create": policies_create,
    "collection_policies_update": policies_update,
    "collection_policies_steps_create": steps_create,
    "collection_policies_steps_update": steps_update,
}


# --- State: fresh idempotency keys --------------------------------------------------------------

IDEMPOTENCY_HEADERS = ("Idempotency-Key", "X-Idempotency-Key")


def fresh(key):
    """The drawn key made unique: its first characters and a UUID, within 255 characters."""
    prefix = key[:218] if isinstance(key, str) else ""
    return f"{prefix}-{uuid.uuid4()}"


def fresh_idempotency_keys(case):
    """A key names one request for 24 h; drawn keys repeat ("0", the spec's example) across
    requests with other bodies, which the API rightly refuses as IDEMPOTENCY_KEY_REUSED."""
    for name in IDEMPOTENCY_HEADERS:
        if case.headers and name in case.headers:
            case.headers[name] = fresh(case.headers[name])
    if isinstance(case.body, dict) and "idempotency_key" in case.body:
        case.body["idempotency_key"] = fresh(case.body["idempotency_key"])


# --- State: If-Match names the current ETag -----------------------------------------------------


def object_path(case):
    """The path that reads the object a PATCH or a state action (POST …/{id}/{verb}) changes."""
    path = case.formatted_path
    if case.method.upper() == "POST":
        path = path.rsplit("/", 1)[0]
    return path


def current_if_match(case):
    """If-Match names the object's current ETag (a stale one is a 412, by design). A drawn list
    keeps its tags, with the current one added: the API matches when any listed tag does."""
    if not case.headers or "If-Match" not in case.headers:
        return
    drawn = case.headers["If-Match"]
    if isinstance(drawn, str) and drawn.strip() == "*":
        return
    answer = get(object_path(case))
    etag = answer.headers.get("ETag")
    if answer.status_code != 200 or not etag:
        return  # no such object: the operation answers 404 whatever If-Match says
    case.headers["If-Match"] = f"{drawn}, {etag}" if isinstance(drawn, str) and drawn.strip() else etag


# --- State: ids in bodies name existing objects -------------------------------------------------

def operations(spec):
    """(path template, method, operation) of every operation of the spec."""
    for template, item in spec["paths"].items():
        for method, operation in item.items():
            if isinstance(operation, dict) and "operationId" in operation:
                yield template, method, operation


def body_references(spec):
    """Body field -> the collection that holds the objects it names: the arguments `x-mcp.complete`
    completes from a list wherever they appear (a plain `id` names an object of many), and the
    debtor's default policy, which no tool completes."""
    lists = {op["operationId"]: template for template, method, op in operations(spec) if method == "get"}
    found = {"default_cp_id": "/v1/collection_policies"}
    for _, _, op in operations(spec):
        for field, list_operation in (op.get("x-mcp", {}).get("complete") or {}).items():
            if field != "id":
                found[field] = lists[list_operation]
    return found


# Body field -> the collection that holds the objects it names.
BODY_REFERENCES = body_references(SPEC)


def existing_id(collection, drawn):
    """An id of the collection, picked by the drawn value (so it varies with it)."""
    answer = get(collection, per_page=100)
    items = answer.json().get("data", []) if answer.status_code == 200 else []
    if not items:
        return drawn
    return items[zlib.crc32(str(drawn).encode()) % len(items)]["id"]


def existing_references(case):
    """An id in a body that names no object (or an archived policy) is a VALIDATION_ERROR on
    that field; ids the run created (OpenAPI links) are kept, drawn ones that name nothing are
    replaced by one from the collection's list (which leaves archived objects out)."""
    for field, collection in BODY_REFERENCES.items():
        drawn = case.body.get(field)
        if not isinstance(drawn, str):
            continue
        current = read(f"{collection}/{quote(drawn, safe='')}")
        if current is not None and current.get("status") != "archived":
            continue
        case.body[field] = existing_id(collection, drawn)


def path_references(spec):
    """(path template prefix, path parameter, the collection that holds the objects it names) for
    every parameter that names an object of a collection the spec lists and reads one by one
    (GET <collection> and GET <collection>/{parameter}), outer parameters first."""
    paths = spec["paths"]
    found = set()
    for template in paths:
        for name in re.findall(r"\{(\w+)\}", template):
            collection = template[: template.index("/{" + name + "}")]
            prefix = f"{collection}/{{{name}}}"
            if "get" in paths.get(collection, {}) and "get" in paths.get(prefix, {}):
                found.add((prefix, name, collection))
    return sorted(found, key=lambda reference: (len(reference[0]), reference))


# Path template prefix -> (path parameter, the collection that holds the objects it names).
PATH_REFERENCES = path_references(SPEC)


def existing_path_ids(case):
    """A drawn id in the path rarely names an object, and every such request stops at 404; one
    that names none (or an archived policy, which refuses changes) is replaced by one from the
    collection's list, so the request reaches the operation. Ids the run learned are kept."""
    for prefix, name, collection in PATH_REFERENCES:
        if not case.path.startswith(prefix) or name not in (case.path_parameters or {}):
            continue
        collection = collection.format(**{k: quote(str(v), safe="") for k, v in case.path_parameters.items()})
        drawn = case.path_parameters[name]
        current = read(f"{collection}/{quote(str(drawn), safe='')}")
        if current is None or current.get("status") == "archived" and name == "cp_id":
            case.path_parameters[name] = existing_id(collection, drawn)


# --- State: a list's `fields` names fields of its rows ------------------------------------------


def row_fields(case):
    """The names a list's `fields` takes: the properties of its row schema, the first of its
    `data` items' anyOf (the second is the row cut to the fields asked for)."""
    spec = case.operation.schema.raw_schema
    schemas = spec["components"]["schemas"]

    def named(reference):
        return schemas[reference.rsplit("/", 1)[-1]]

    answer = case.operation.definition.raw["responses"]["200"]["content"]["application/json"]["schema"]
    rows = named(answer["$ref"])["properties"]["data"]["items"]["anyOf"][0]
    return list(named(rows["$ref"])["properties"])


def known_fields(case):
    """A drawn `fields` names nothing a row has; the names are taken from the row instead, as
    many as the drawn value has and picked by it (so the answer's rows are cut in every way)."""
    drawn = case.query.get("fields")
    if not isinstance(drawn, str):
        return
    names = row_fields(case)
    picks = max(1, min(len(names), len(drawn.split(","))))
    rng = random.Random(zlib.crc32(drawn.encode()))
    case.query["fields"] = ",".join(rng.sample(names, picks))


DATE = re.compile(r"^(\d{4})(-\d{2}-\d{2})")


def within_calendar(value):
    """A date or instant moved into the years the API takes (1900 to 2199), same day of 2026."""
    if isinstance(value, str):
        found = DATE.match(value)
        if found and not 1900 <= int(found.group(1)) <= 2199:
            day = "-02-28" if found.group(2) == "-02-29" else found.group(2)
            return "2026" + day + value[found.end():]
    return value


@schemathesis.hook
def before_call(ctx, case, kwargs):
    if case.meta is None or not case.meta.generation.mode.is_positive:
        return
    fresh_idempotency_keys(case)
    existing_path_ids(case)
    if case.query:
        for name, value in list(case.query.items()):
            case.query[name] = within_calendar(without_astral_format(value))
        known_fields(case)
    if isinstance(case.body, dict):
        for name, value in list(case.body.items()):
            case.body[name] = within_calendar(without_astral_format(value))
        rng = random.Random(zlib.crc32(f"{case.formatted_path} {case.body!r}".encode()))
        existing_references(case)
        fix = FIXES.get(case.operation.definition.raw.get("operationId", ""))
        if fix is not None:
            fix(case, case.body, rng)
        fix_metadata(case.body)
    current_if_match(case)


# --- What the run did ---------------------------------------------------------------------------

_requests = 0
_statuses = {}  # operation -> status -> count


@schemathesis.hook
def after_call(ctx, case, response):
    global _requests
    _requests += 1
    by_status = _statuses.setdefault(case.operation.label, {})
    by_status[response.status_code] = by_status.get(response.status_code, 0) + 1
    if _trace is not None:
        mode = case.meta.generation.mode.value if case.meta else None
        _trace.write(json.dumps({
            "operation": case.operation.label, "mode": mode, "path": case.formatted_path,
            "body": case.body if isinstance(case.body, (dict, list, str, int, float)) else None,
            "status": response.status_code, "answer": response.text[:300],
        }, default=str) + "\n")


# KD_DRIFT_TRACE=<file>: one JSON line per request (operation, mode, body, status, answer).
_trace = open(os.environ["KD_DRIFT_TRACE"], "w") if os.environ.get("KD_DRIFT_TRACE") else None


@atexit.register
def _write_counts():
    path = os.environ.get("KD_DRIFT_COUNTS")
    if path:
        with open(path, "w") as out:
            json.dump({"requests": _requests, "operations": len(_statuses), "statuses": _statuses}, out)
