# 24-hour times without "a.m."/"p.m." (a time ends many sentences: "until 5:25 a.m.." was wrong).
TIME_FORMAT = "H:i"
DATETIME_FORMAT = "N j, Y, H:i"
SHORT_DATETIME_FORMAT = "Y-m-d H:i"
