from django.urls import path

from . import api

urlpatterns = [
    path("account/export/", api.AccountExport.as_view(), name="api-account-export"),
    path("account/delete/", api.AccountDelete.as_view(), name="api-account-delete"),
]
