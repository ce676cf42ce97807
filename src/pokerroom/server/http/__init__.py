"""The app's routes by concern: accounts, hands (lobby and exports), the floor, the socket."""
