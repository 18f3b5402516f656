"""SeatClock.deadline: when the running turn's time runs out (kept by services._schedule).
Running clocks get theirs here, by the same pure arithmetic (clocks.timecalc)."""
from datetime import timedelta

from django.db import migrations, models


def fill_deadlines(apps, schema_editor):
    from clocks import timecalc

    SeatClock = apps.get_model("clocks", "SeatClock")
    TimeControl = apps.get_model("clocks", "TimeControl")
    Vacation = apps.get_model("clocks", "Vacation")
    Profile = apps.get_model("accounts", "Profile")
    for clock in SeatClock.objects.filter(started_at__isnull=False, stage__lt=3):
        tc = TimeControl.objects.filter(match_id=clock.match_id).first()
        if tc is None:
            continue
        budget = clock.bank_seconds if tc.mode == "bank" else tc.move_days * 86400.0
        blocked = [(v.start, v.end) for v in Vacation.objects.filter(user_id=clock.user_id, end__gt=clock.started_at)]
        if tc.weekends_off:
            tz = Profile.objects.filter(user_id=clock.user_id).values_list("timezone", flat=True).first() or "UTC"
            blocked += timecalc.weekends(tz, clock.started_at,
                                         clock.started_at + timedelta(seconds=budget * 2 + 366 * 86400))
        clock.deadline = timecalc.when_elapsed(clock.started_at, budget, blocked)
        clock.save(update_fields=["deadline"])


class Migration(migrations.Migration):

    dependencies = [
        ('clocks', '0001_initial'),
        ('accounts', '0001_initial'),
    ]

    operations = [
        migrations.AddField(
            model_name='seatclock',
            name='deadline',
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.RunPython(fill_deadlines, migrations.RunPython.noop),
    ]
