"""``make bench``: pokerroom's speed beside its peers', measured in the same run."""
