"""The built-ins a rule file may call: functions, the meld search, the limits on what it may cost."""
