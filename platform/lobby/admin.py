from django.contrib import admin

from .models import Entry, Invitation


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0


@admin.register(Invitation)
class InvitationAdmin(admin.ModelAdmin):
    list_display = ("id", "game", "host", "players", "seats_taken", "status", "created_at")
    list_filter = ("game", "status")
    inlines = [EntryInline]
