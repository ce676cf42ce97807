"""An account's id and its key in the table and tournament cores."""

import pytest

from pokerroom.store.account_ids import AccountId, account_of, player_key


def test_an_accounts_table_key_is_its_decimal_id_and_reads_back() -> None:
    assert player_key(AccountId(7)) == "7"
    assert account_of("7") == 7
    assert account_of(player_key(AccountId(1234))) == 1234


def test_a_key_that_is_no_accounts_is_refused() -> None:
    with pytest.raises(ValueError):
        account_of("7#2")  # a tournament re-entry's key names an entry, not an account
