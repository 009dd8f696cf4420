"""schemathesis hooks for the drift checks: values that a schema cannot make valid (CPF/CNPJ
check digits, real area codes, CEPs) are drawn from generators of valid ones, so that a
rejected request means a real disagreement between the spec and the API."""

import schemathesis
from hypothesis import strategies as st


def cpf_from(digits):
    """A CPF with valid check digits from its first nine digits."""
    nums = list(digits)
    for size in (9, 10):
        total = sum(n * (size + 1 - i) for i, n in enumerate(nums[:size]))
        check = (total * 10) % 11 % 10
        nums.append(check)
    return "".join(map(str, nums))


def cnpj_from(digits):
    """A CNPJ with valid check digits from its first twelve digits."""
    nums = list(digits)
    for weights in ([5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2], [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]):
        total = sum(n * w for n, w in zip(nums, weights))
        rest = total % 11
        nums.append(0 if rest < 2 else 11 - rest)
    return "".join(map(str, nums))


# Area codes (DDD) in use in Brazil.
AREA_CODES = [
    11, 12, 13, 14, 15, 16, 17, 18, 19, 21, 22, 24, 27, 28, 31, 32, 33, 34, 35, 37, 38, 41, 42, 43,
    44, 45, 46, 47, 48, 49, 51, 53, 54, 55, 61, 62, 63, 64, 65, 66, 67, 68, 69, 71, 73, 74, 75, 77,
    79, 81, 82, 83, 84, 85, 86, 87, 88, 89, 91, 92, 93, 94, 95, 96, 97, 98, 99,
]

nine = st.lists(st.integers(0, 9), min_size=9, max_size=9).filter(lambda d: len(set(d)) > 1)
twelve = st.lists(st.integers(0, 9), min_size=12, max_size=12).filter(lambda d: len(set(d)) > 1)
documents = st.one_of(nine.map(cpf_from), twelve.map(cnpj_from))
mobiles = st.tuples(st.sampled_from(AREA_CODES), st.integers(10_000_000, 99_999_999)).map(
    lambda t: f"+55{t[0]}9{t[1]}"
)
landlines = st.tuples(st.sampled_from(AREA_CODES), st.integers(20_000_000, 59_999_999)).map(
    lambda t: f"+55{t[0]}{t[1]}"
)
zipcodes = st.integers(1_000_000, 99_999_999).map(lambda n: f"{n:08d}")


def fix_debtor(body, draw):
    """Makes the fields of a debtor body that carry business rules valid."""
    if not isinstance(body, dict):
        return body
    if "document" in body:
        body["document"] = draw(documents)
    if isinstance(body.get("mobile"), str):
        body["mobile"] = draw(mobiles)
    if isinstance(body.get("phone"), str):
        body["phone"] = draw(landlines)
    address = body.get("address")
    if isinstance(address, dict) and "zipcode" in address:
        address["zipcode"] = draw(zipcodes)
    return body


@schemathesis.hook
def flatmap_body(ctx, body):
    operation = ctx.operation.definition.raw.get("operationId", "")
    if operation in ("debtors_create", "debtors_update"):
        return st.composite(lambda draw: fix_debtor(body, draw))()
    return st.just(body)
