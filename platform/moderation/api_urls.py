from django.urls import path

from . import api

urlpatterns = [path("reports/", api.Reports.as_view(), name="api-reports")]
