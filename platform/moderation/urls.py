from django.urls import path

from . import views

urlpatterns = [path("reports/new/", views.new_report, name="report-new")]
