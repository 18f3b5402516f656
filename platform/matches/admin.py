from django.contrib import admin

from .models import ChatMessage, LogEntry, Match, Seat


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    exclude = ("has_orders",)  # kept by matches/orders.py with the seat's (private) orders


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ("id", "game", "status", "version", "updated_at")
    list_filter = ("game", "status")
    inlines = [SeatInline]
    exclude = ("seed",)


admin.site.register(LogEntry)
admin.site.register(ChatMessage)
