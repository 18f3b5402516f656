"""The moderators' queue: open reports first, with the actions warn, mute in chat, suspend,
dismiss (each acts on the reported player of the selected reports and closes them)."""
from django.contrib import admin, messages
from django.utils.translation import gettext_lazy as _

from . import services
from .models import Report, Sanction


def _each(modeladmin, request, queryset, act, done):
    count = 0
    for report in queryset.select_related("reported"):
        act(report.reported, by=request.user, reason=report.reason[:500], report=report)
        count += 1
    modeladmin.message_user(request, f"{done}: {count}", messages.SUCCESS)


@admin.action(description=_("Warn the reported players"))
def warn(modeladmin, request, queryset):
    _each(modeladmin, request, queryset, services.warn, _("Warned"))


@admin.action(description=_("Mute the reported players in chat for 7 days"))
def mute_week(modeladmin, request, queryset):
    _each(modeladmin, request, queryset, lambda u, **kw: services.mute(u, days=7, **kw), _("Muted"))


@admin.action(description=_("Mute the reported players in chat until lifted"))
def mute_for_good(modeladmin, request, queryset):
    _each(modeladmin, request, queryset, lambda u, **kw: services.mute(u, days=None, **kw), _("Muted"))


@admin.action(description=_("Suspend the reported players"))
def suspend(modeladmin, request, queryset):
    _each(modeladmin, request, queryset, services.suspend, _("Suspended"))


@admin.action(description=_("Dismiss the reports"))
def dismiss(modeladmin, request, queryset):
    for report in queryset:
        services.dismiss(report, by=request.user)
    modeladmin.message_user(request, _("Dismissed"), messages.SUCCESS)


@admin.register(Report)
class ReportAdmin(admin.ModelAdmin):
    list_display = ("created_at", "status", "category", "reported", "reporter", "match", "short_reason")
    list_filter = ("status", "category")
    search_fields = ("reported__username", "reporter__username", "reason", "chat_text")
    list_select_related = ("reported", "reporter")
    raw_id_fields = ("reporter", "reported", "match", "chat_message", "handled_by")
    readonly_fields = ("created_at", "handled_at", "handled_by", "chat_text")
    actions = [warn, mute_week, mute_for_good, suspend, dismiss]

    @admin.display(description=_("reason"))
    def short_reason(self, obj):
        return obj.reason[:80]


@admin.register(Sanction)
class SanctionAdmin(admin.ModelAdmin):
    list_display = ("created_at", "kind", "user", "until", "lifted", "by")
    list_filter = ("kind", "lifted")
    search_fields = ("user__username", "reason")
    raw_id_fields = ("user", "report", "by")
    list_select_related = ("user", "by")
