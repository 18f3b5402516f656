from django.urls import path

from . import views

urlpatterns = [path("account/data/", views.account_data, name="account-data")]
