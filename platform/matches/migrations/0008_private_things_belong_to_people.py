"""Notes and orders belong to a person, not a seat; a log entry names who acted at the time."""
import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def forwards(apps, schema_editor):
    Seat = apps.get_model("matches", "Seat")
    SeatNote = apps.get_model("matches", "SeatNote")
    SeatOrders = apps.get_model("matches", "SeatOrders")
    LogEntry = apps.get_model("matches", "LogEntry")
    for note in SeatNote.objects.select_related("seat"):
        if note.seat.user_id is None:
            note.delete()
        else:
            SeatNote.objects.filter(pk=note.pk).update(user_id=note.seat.user_id)
    for row in SeatOrders.objects.select_related("seat"):
        SeatOrders.objects.filter(pk=row.pk).update(user_id=row.seat.user_id)
    # Who held each seat when: walk each match's log backwards from today's holders; a hand-over
    # entry names the one who held the seat before it.
    acting = ("action", "undo", "resign", "penalty")
    for match_id in LogEntry.objects.filter(kind="seat").values_list("match_id", flat=True).distinct():
        holders = {s.seat: (s.user_id, "") for s in Seat.objects.filter(match_id=match_id)}
        for entry in LogEntry.objects.filter(match_id=match_id).order_by("-seq"):
            if entry.kind == "seat":
                for event in entry.events or []:
                    if event.get("type") == "substitute":
                        holders[event["seat"]] = (event.get("left"), "")
            elif entry.kind in acting and entry.seat is not None and entry.seat in holders:
                LogEntry.objects.filter(pk=entry.pk).update(actor_id=holders[entry.seat][0])


class Migration(migrations.Migration):

    dependencies = [
        ('matches', '0007_seat_notify_level_chat_read_seatnote'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name='seatorders', name='user',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE,
                                    related_name='+', to=settings.AUTH_USER_MODEL)),
        migrations.AddField(
            model_name='logentry', name='actor',
            field=models.ForeignKey(blank=True, db_constraint=False, null=True,
                                    on_delete=django.db.models.deletion.SET_NULL, related_name='+',
                                    to=settings.AUTH_USER_MODEL)),
        migrations.AddField(
            model_name='logentry', name='actor_bot',
            field=models.CharField(blank=True, default='', max_length=20)),
        migrations.AddField(
            model_name='seatnote', name='user',
            field=models.ForeignKey(null=True, on_delete=django.db.models.deletion.CASCADE, related_name='+',
                                    to=settings.AUTH_USER_MODEL)),
        migrations.RunPython(forwards, migrations.RunPython.noop),
        migrations.RemoveField(model_name='seatnote', name='seat'),
        migrations.AlterField(
            model_name='seatnote', name='user',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+',
                                    to=settings.AUTH_USER_MODEL)),
        migrations.AddConstraint(
            model_name='seatnote',
            constraint=models.UniqueConstraint(fields=('match', 'user'), name='seatnote_match_user')),
    ]
