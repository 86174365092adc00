import HTTPTypes
