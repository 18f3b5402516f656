"""The site's own date and time formats (FORMAT_MODULE_PATH): Django's English ones write
"5:25 a.m.", which doubles the dot at a sentence's end; the site writes 24-hour times."""
